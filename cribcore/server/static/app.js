// The cribbage board: a client of the protocol in docs/server.md. It decides nothing: it shows each
// seat's own view as the server sends it and sends the actions a player chooses. Every name and every
// text from the server is inserted as text (textContent / text nodes), never as markup.

const $ = (id) => document.getElementById(id);
const GAMES = "cribcore.games";
const NAME = "cribcore.name";
const LANG_KEY = "cribcore.lang";
const LANGS = ["en", "es"];

// ----------------------------------------------------------------- the board's words
// Every message the board shows is looked up by its English text (the message id) in the board's
// gettext catalog for the chosen language, which the server serves as JSON (GET /api/i18n/LANG).
// `t` translates now; `N_` only marks a message id kept in a table, translated where it is shown.
// Named placeholders ({who}) are filled in after the lookup, so a translation may reorder them.

let LANG = "en";
let CATALOG = {};

function t(msgid, params) {
  const text = (LANG !== "en" && CATALOG[msgid]) || msgid;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, k) => (k in params ? String(params[k]) : whole));
}

const N_ = (msgid) => msgid;

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
// The built-in profiles' names said in the board's language; the name stays the profile's identifier.
const PROFILE_TITLES = {
  standard: N_("standard"), "five-card": N_("five-card"), "five-card-muggins": N_("five-card-muggins"),
  "flush-with-starter": N_("flush-with-starter"), "four-players": N_("four-players"), lowball: N_("lowball"),
  muggins: N_("muggins"), partners: N_("partners"), "seven-card": N_("seven-card"),
  "skunk-match": N_("skunk-match"), "three-players": N_("three-players"),
};
const SUIT_NAMES = { C: N_("clubs"), D: N_("diamonds"), H: N_("hearts"), S: N_("spades") };
const RANK_NAMES = { A: N_("ace"), T: "10", J: N_("jack"), Q: N_("queen"), K: N_("king") };
const FATAL = { 4403: N_("bad key"), 4404: N_("no room"), 4410: N_("expired") };
const LEVEL_NAMES = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };
const LEVEL_BUTTONS = { easy: N_("Easy"), medium: N_("Medium"), hard: N_("Hard"), expert: N_("Expert") };

// The language the browser asks for (its first preference: Spanish for es-*, else English), unless
// the player chose one on the board.
function chosenLang() {
  try {
    const kept = localStorage.getItem(LANG_KEY);
    if (LANGS.includes(kept)) return kept;
  } catch {
    /* no storage */
  }
  const wanted = (navigator.languages && navigator.languages[0]) || navigator.language || "en";
  return String(wanted).toLowerCase().startsWith("es") ? "es" : "en";
}

async function loadCatalog(lang) {
  if (lang === "en") return {};
  const res = await fetch(`/api/i18n/${lang}`);
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return (await res.json()).messages || {};
}

// The page's own text (index.html): each element marked data-i18n keeps its English as the id.
function translatePage() {
  document.documentElement.lang = LANG;
  document.title = t("Cribbage");
  for (const e of document.querySelectorAll("[data-i18n]")) {
    if (!e.dataset.msgid) e.dataset.msgid = e.textContent.trim();
    e.textContent = t(e.dataset.msgid);
  }
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) {
    e.placeholder = t(e.dataset.i18nPlaceholder);
  }
  for (const e of document.querySelectorAll("[data-i18n-label]")) {
    e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  }
  $("copy").textContent = t("Copy link");
  $("lang").value = LANG;
}

// Switch the board's language: the page, the table (each seat's connection asks the server for its
// words in the new language) and the start screen; ``keep`` remembers the choice on this device.
async function setLang(lang, keep) {
  if (!LANGS.includes(lang)) lang = "en";
  try {
    CATALOG = await loadCatalog(lang);
  } catch (e) {
    status(`Cannot load the translations: ${e.message}`);
    lang = "en";
    CATALOG = {};
  }
  LANG = lang;
  if (keep) {
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch {
      /* private mode: the choice lasts this page */
    }
  }
  translatePage();
  if (table) {
    table.logKey = "";
    for (const c of table.conns.values()) c.send({ type: "lang", lang }, true);
    table.render();
  }
  if (!$("start").hidden) renderStart(true);
  if (!$("practice").hidden) renderPractice();
}

// ----------------------------------------------------------------- small helpers

function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "onclick") e.addEventListener("click", v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function show(node, on) {
  node.hidden = !on;
}

// A plugin's pack may hold cards beyond the standard 52 (jokers), written in a text form of the
// plugin's own ("X1"): they are shown as that text, never as a rank and suit.
function isStandard(c) {
  return c.length === 2 && c[1] in SUITS;
}

function isRed(c) {
  return isStandard(c) && (c[1] === "H" || c[1] === "D");
}

// A heading starts with a capital whatever the language's words put first ("la cuna de Ordenador").
function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function profileTitle(name) {
  return Object.hasOwn(PROFILE_TITLES, name) ? t(PROFILE_TITLES[name]) : name;
}

function cardText(c) {
  if (!isStandard(c)) return c;
  return (c[0] === "T" ? "10" : c[0]) + (SUITS[c[1]] || c[1]);
}

function cardLabel(c) {
  if (!isStandard(c)) return t("card {card}", { card: c });
  const rank = RANK_NAMES[c[0]] ? t(RANK_NAMES[c[0]]) : c[0];
  return t("{rank} of {suit}", { rank, suit: SUIT_NAMES[c[1]] ? t(SUIT_NAMES[c[1]]) : c[1] });
}

function cardSpan(c, attrs) {
  const red = isRed(c);
  return el("span", { class: `card small${red ? " red" : ""}`, title: cardLabel(c), ...attrs }, cardText(c));
}

// A score item as the terminal lists it: its name, its cards (a wild card with what it stood for,
// "J♠ as 4♦"), its points (none for a silent, informational item).
function itemLine(it) {
  const cards = [];
  for (const c of it.cards) {
    const stood = it.wild && it.wild[c];
    cards.push(
      stood
        ? el("span", { class: "wild", "data-testid": "wild-card", title: cardLabel(stood) }, t("{card} as {stood}", { card: cardText(c), stood: cardText(stood) }))
        : cardSpan(c),
    );
  }
  return el(
    "li",
    {},
    el("span", { class: "item-name" }, it.name),
    el("span", { class: "item-cards" }, ...cards),
    el("span", { class: "item-points" }, it.silent ? "" : String(it.points)),
  );
}

function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

// A reason from the server names cards in their text form ("keeps 4D 4S 5H 8H"): drawn as the board
// draws cards, so that one line never mixes "8♣" with "4D".
function cardsDrawn(text) {
  return text.replace(/\b[2-9TJQKA][CDHS]\b/g, cardText);
}

// An action's text form in words: "discard 5H 5D" -> "lay away 5♥ 5♦".
function actionWords(action) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "discard") return t("lay away {cards}", { cards: cardsText(rest) });
  if (verb === "play") return t("play {cards}", { cards: cardsText(rest) });
  if (verb === "muggins") return t("call muggins for {n}", { n: rest[0] });
  if (verb === "pass") return t("let the count stand");
  return action;
}

function list(names) {
  if (names.length < 2) return names.join("");
  return t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

let statusTimer = 0;
function status(text, kind = "error") {
  const s = $("status");
  s.textContent = text || "";
  s.className = `status ${text ? kind : ""}`;
  clearTimeout(statusTimer);
  if (text && kind === "info") statusTimer = setTimeout(() => status(""), 4000);
}

// ----------------------------------------------------------------- numbers in words
// The words for scores come from the server with each event (`cribcore.speech`): item names,
// reasons and the count spoken aloud, the same as the terminal says them.

// Small numbers in words (how many cards, how many friends): zero to ten in every language.
const SMALL = [N_("zero"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"), N_("nine"), N_("ten")];
const ONES = [
  ...SMALL,
  ..."eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" "),
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

function words(n) {
  if (n >= 0 && n <= 10) return t(SMALL[n]);
  if (LANG !== "en") return String(n);
  if (n >= 0 && n < 20) return ONES[n];
  if (n >= 20 && n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? `-${ONES[n % 10]}` : "");
  return String(n);
}

// ----------------------------------------------------------------- seats and sides

// The rules' own reading of sides and targets (cribcore.rules.RuleSet side_of, sides, target_of).
function sideOf(view, seat) {
  const given = view.rules.sides_of_seats;
  if (given) return given[seat];
  return view.rules.partnerships ? seat % 2 : seat;
}

function sideCount(view) {
  const given = view.rules.sides_of_seats;
  if (given) return Math.max(...given) + 1;
  return view.rules.partnerships ? 2 : view.players.length;
}

function targetOf(view, side) {
  const given = view.rules.targets;
  return given ? given[side] : view.rules.target;
}

// "first to 121", or with a target per side "Ann to 61, Bo & Cy to 121".
function goalText(view) {
  const targets = Array.from({ length: sideCount(view) }, (_, side) => targetOf(view, side));
  if (targets.every((n) => n === targets[0])) return t("first to {n}", { n: targets[0] });
  const names = sideNames(view);
  return targets.map((n, side) => t("{who} to {n}", { who: names[side], n })).join(", ");
}

function sideNames(view) {
  const n = sideCount(view);
  const names = Array.from({ length: n }, () => []);
  view.players.forEach((p, s) => names[sideOf(view, s)].push(p));
  return names.map((ns) => ns.join(" & "));
}

function scoresText(view, scores) {
  const names = sideNames(view);
  return scores.map((p, i) => `${names[i] ?? "?"} ${p}`).join(" · ");
}


// ----------------------------------------------------------------- the log

// One event in words; ``own`` says whether a private event's cards may be shown.
function describe(ev, view, ctx, own) {
  const who = ev.seat === null ? t("The table") : view.players[ev.seat] ?? t("Seat {n}", { n: ev.seat + 1 });
  const scored = (text) => (ev.scored && ev.scores.length ? `${text}   (${scoresText(view, ev.scores)})` : text);
  const points = ev.points;
  switch (ev.kind) {
    case "cut":
      return t("{who} cuts {cards}.", { who, cards: cardsText(ev.cards) });
    case "deal":
      ctx.dealer = ev.seat;
      return { heading: t("Deal {n} · {who} deals", { n: ev.deal + 1, who }) };
    case "dealt":
      return null;
    case "discard": {
      const crib = ctx.dealer === ev.seat ? t("their own crib") : t("{who}'s crib", { who: view.players[ctx.dealer] ?? t("the dealer") });
      const n = view.rules.discards;
      const what = own && ev.cards.length ? cardsText(ev.cards) : n === 1 ? t("one card") : t("{n} cards", { n: words(n) });
      return t("{who} lays away {what} to {crib}.", { who, what, crib });
    }
    case "starter":
      return t("The starter is {card}.", { card: cardsText(ev.cards) });
    case "heels":
      return scored(t("{who} scores {points} for {what}.", { who, points, what: ev.spoken || t("his heels (a jack turned up)") }));
    case "play": {
      const line = t("{who} plays {card} — {count}", { who, card: cardsText(ev.cards), count: ev.count ?? 0 });
      if (!ev.scored) return line;
      const text = t("{line} for {points}: {spoken}", { line, points, spoken: ev.spoken });
      return scored(ev.items.length > 1 ? `${text} (${ev.reasons})` : text);
    }
    case "says-go":
      return t("{who} says go.", { who });
    case "go":
      return scored(ev.note === "last card" ? t("{who} gets 1 for the last card.", { who }) : t("{who} gets 1 for the go.", { who }));
    case "reset":
      return { dim: t("The count starts again at 0.") };
    case "hand":
    case "crib": {
      const cards = cardsText(ev.cards);
      const head = ev.kind === "hand" ? t("{who}'s hand {cards}", { who, cards }) : t("{who}'s crib {cards}", { who, cards });
      if (ev.note === "to count") return t("{head}: to count.", { head });
      return scored(t("{head}: {points} — {spoken}.", { head, points, spoken: ev.spoken }));
    }
    case "win": {
      const side = ev.side ?? (ev.seat === null ? 0 : sideOf(view, ev.seat));
      return { heading: t("Game over: {who} wins. {scores}", { who: sideNames(view)[side], scores: scoresText(view, ev.scores) }) };
    }
    case "count": {
      const declared = ev.note.replace(/^declared /, "").split(",")[0];
      const corrected = ev.note.includes(", corrected to ");
      if (ev.points === 0 && !corrected) return ev.cards.length === 1 ? null : scored(t("{who} counts nothing.", { who }));
      if (corrected) return scored(t("{who} counts {n}, corrected to {points}.", { who, n: declared, points }));
      return scored(t("{who} counts {n}.", { who, n: declared }));
    }
    case "muggins": {
      const called = ev.note.replace(/^called /, "").split(";")[0];
      if (ev.points === 1) return scored(t("Muggins! {who} takes 1 missed point (called {n}): {reasons}.", { who, n: called, reasons: ev.reasons }));
      if (ev.points) return scored(t("Muggins! {who} takes {points} missed points (called {n}): {reasons}.", { who, points, n: called, reasons: ev.reasons }));
      return scored(t("{who} calls muggins for {n}, but nothing was missed.", { who, n: called }));
    }
    case "penalty":
      return scored(t("{who} scores {points} for the false call.", { who, points }));
    case "missed": {
      const n = Number(ev.note.split(" ")[0]);
      return n === 1
        ? t("Nobody called muggins: 1 point was missed ({reasons}).", { reasons: ev.reasons })
        : t("Nobody called muggins: {n} points were missed ({reasons}).", { n, reasons: ev.reasons });
    }
    case "compensation":
      return scored(t("{who} scores {points} for last (not dealing first).", { who, points }));
    default: {
      const w = ev.kind.replace(/[-_]/g, " ");
      if (ev.scored) return scored(t("{who} scores {points} for {what}.", { who, points, what: ev.reasons || w }));
      let text = `${who}: ${w}`;
      if (ev.cards.length && (own || !ev.private)) text += ` ${cardsText(ev.cards)}`;
      if (ev.count !== null) text += ` ${t("(count {n})", { n: ev.count })}`;
      if (ev.note) text += ` — ${ev.note.replace(/\{seat (\d+)\}/g, (whole, n) => view.players[n - 1] ?? whole)}`;
      return `${text}.`;
    }
  }
}

// ----------------------------------------------------------------- the pegging board

// A board of streets as on a wooden one: holes 1, 2, … in lanes of 60 (30 where the screen is too
// narrow for a point to be a finger's width apart), one row per side, the game hole at the end of the
// last lane. Numbers every 10, ticks every 5, marks at the skunk line (target − 30) and the double
// skunk line (target − 60: 91 and 61 on a board to 121) and at the game hole.
function drawBoard(b, view, pegs) {
  const W = Math.max(240, Math.round(b.clientWidth || 360));
  const sides = pegs.length;
  const targets = pegs.map((_, side) => targetOf(view, side));
  const longest = Math.max(...targets);
  const margin = 6;
  const lane = (W - 2 * margin) / 62 >= 9 || longest <= 31 ? Math.min(60, Math.max(30, longest - 1)) : 30;
  const step = (W - 2 * margin) / (lane + 2.2);
  const lanes = Math.max(1, Math.ceil((longest - 1) / lane));
  const rowH = 13;
  const laneH = 11 + sides * rowH + 5;
  // Where hole ``n`` of a side to ``target`` is: its lane and its place along it (0 is the start).
  const place = (n, target) => {
    if (n <= 0) return { lane: 0, slot: 0 };
    const at = Math.min(n, target);
    if (at === target && (target - 1) % lane === 0) return { lane: (target - 1) / lane - 1, slot: lane + 1 };
    return { lane: Math.floor((at - 1) / lane), slot: ((at - 1) % lane) + 1 };
  };
  const xOf = (slot) => margin + (slot + 0.6) * step;
  const yOf = (laneIndex, side) => laneIndex * laneH + 11 + side * rowH + rowH / 2;
  b.setAttribute("viewBox", `0 0 ${W} ${lanes * laneH}`);
  b.replaceChildren();
  const marks = new Map();
  targets.forEach((target) => {
    for (const n of [target - 60, target - 30]) if (n > 0) marks.set(n, "line");
    marks.set(target, "game");
  });
  for (let k = 0; k < lanes; k += 1) {
    b.append(svg("rect", { x: margin / 2, y: k * laneH + 9, width: W - margin, height: sides * rowH + 4, rx: 4, class: "street" }));
  }
  // Hole numbers above each lane (not next to a mark, which carries its own number).
  const near = (n) => [...marks.keys()].some((m) => m !== n && Math.abs(m - n) <= 2);
  for (let n = 5; n < longest; n += 5) {
    const { lane: k, slot } = place(n, longest);
    if (n % 10 === 0 && !near(n) && !marks.has(n)) {
      const label = svg("text", { x: xOf(slot), y: k * laneH + 8, class: "num", "data-num": n, "text-anchor": "middle" });
      label.textContent = String(n);
      b.append(label);
    }
  }
  for (const [n, kind] of marks) {
    const { lane: k, slot } = place(n, longest);
    const x = xOf(slot);
    b.append(svg("line", { x1: x, y1: k * laneH + 9, x2: x, y2: k * laneH + 13 + sides * rowH, class: `mark ${kind}` }));
    const label = svg("text", { x, y: k * laneH + 8, class: "num mark-num", "data-mark": n, "text-anchor": "middle" });
    label.textContent = String(n);
    b.append(label);
  }
  pegs.forEach((p, side) => {
    const target = targets[side];
    for (let n = 1; n <= target; n += 1) {
      const { lane: k, slot } = place(n, target);
      const r = n === target ? 3 : n % 5 === 0 ? 1.9 : 1.4;
      b.append(svg("circle", { cx: xOf(slot), cy: yOf(k, side), r, class: n === target ? "hole game" : "hole", "data-side": side, "data-hole": n }));
    }
    const front = place(p.front, target);
    const back = place(p.back, target);
    const fx = xOf(front.slot);
    let bx = xOf(back.slot);
    // Both pegs start off the board: the back one stands just behind the front one.
    if (back.lane === front.lane && back.slot === front.slot) bx -= step * 0.55;
    const frontPeg = svg("circle", { cx: fx, cy: yOf(front.lane, side), r: 5, class: `peg front side${side}`, "data-peg": `front-${side}` });
    // Drawn after the front peg, so a back peg a hole behind is never under it.
    const backPeg = svg("circle", { cx: bx, cy: yOf(back.lane, side), r: 3.8, class: `peg back side${side}`, "data-peg": `back-${side}` });
    b.append(frontPeg, backPeg);
  });
}

// ----------------------------------------------------------------- saved games

function loadGames() {
  try {
    const v = JSON.parse(localStorage.getItem(GAMES) || "[]");
    return Array.isArray(v) ? v.filter((g) => g && typeof g.room === "string" && Array.isArray(g.keys)) : [];
  } catch {
    return [];
  }
}

function saveGames(games) {
  try {
    localStorage.setItem(GAMES, JSON.stringify(games));
  } catch {
    status(t("This browser would not save the game: it cannot be resumed after a reload."));
  }
}

function getGame(room) {
  return loadGames().find((g) => g.room === room) || null;
}

// Store a game; the keys of a game already saved are merged (one device may hold several seats).
function putGame(rec) {
  const games = loadGames();
  const old = games.find((g) => g.room === rec.room);
  if (old) {
    const keys = [...old.keys];
    for (const k of rec.keys) if (!keys.some((o) => o.seat === k.seat)) keys.push(k);
    Object.assign(old, rec, { keys: keys.sort((a, b) => a.seat - b.seat) });
  } else {
    games.unshift(rec);
  }
  saveGames(games);
}

function updateGame(room, fields) {
  const games = loadGames();
  const g = games.find((x) => x.room === room);
  if (!g) return;
  const before = JSON.stringify(g);
  Object.assign(g, fields);
  if (JSON.stringify(g) !== before) saveGames(games);
}

function dropGame(room) {
  saveGames(loadGames().filter((g) => g.room !== room));
}

// ----------------------------------------------------------------- HTTP

async function api(path, body) {
  // The server says its errors in the language chosen on the board.
  const headers = { "Accept-Language": LANG };
  const init = body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Error(t("cannot reach the server"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw new Error((data && data.error) || t("the server answered {status}", { status: res.status }));
  return data;
}

// The computer's seats are named by the server in English ("Computer (easy)"): shown in the board's
// language. A person's name is never changed.
function localPlayers(players, seats) {
  return players.map((name, s) => {
    const info = seats.find((x) => x.seat === s);
    // A friend's seat not taken yet is named by the server "Seat 2": said in the board's language.
    if (info && info.kind === "human" && !info.joined && /^Seat \d+$/.test(name)) return t("Seat {n}", { n: s + 1 });
    if (!info || info.kind === "human") return name;
    const level = /^Computer \((easy|medium|hard|expert)\)$/.exec(name);
    if (level) return t("Computer ({level})", { level: t(LEVEL_NAMES[level[1]]) });
    const nth = /^Computer (\d)$/.exec(name);
    return nth ? t("Computer {n}", { n: nth[1] }) : name;
  });
}

// ----------------------------------------------------------------- one seat's connection

class Conn {
  constructor(table, seat, key) {
    Object.assign(this, { table, seat, key, ws: null, room: null, view: null, events: [], stamp: 0, log: 0 });
    this.tries = 0;
    this.timer = 0;
    this.stopped = false;
    this.pending = false;
    this.lost = false;
    this.goSeen = 0;
    this.goAcked = -1;
  }

  // The engine says go for a seat that cannot lay a card (the help's Go): the newest such go of this
  // seat in the play still going on, until the player acknowledges it with the Go button.
  pendingGo() {
    const v = this.view;
    if (!v || v.phase !== "play" || this.room?.between_hands) return null;
    for (let i = this.events.length - 1; i >= Math.max(this.goSeen, this.goAcked + 1); i -= 1) {
      const ev = this.events[i];
      if (ev.deal !== v.deal) return null;
      if (ev.kind === "says-go" && ev.seat === this.seat) return { index: i, count: ev.count ?? 0 };
    }
    return null;
  }

  open() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    // ``changes``: after the first (full) state, each state carries only what changed (see receive).
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", key: this.key, lang: LANG, changes: true }));
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (this.ws === ws) this.receive(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.pending = false;
      this.closed(e.code, e.reason);
      if (!this.stopped) this.table.render();
    };
  }

  closed(code, reason) {
    if (this.stopped) return;
    if (FATAL[code]) {
      this.table.fatal(code, reason || this.lastError);
      return;
    }
    if (code === 4409) {
      this.lost = true;
      this.table.render();
      status(t("This seat was opened elsewhere (another tab or device)."), "error");
      return;
    }
    const delay = Math.min(15000, 500 * 2 ** this.tries) * (0.75 + Math.random() / 2);
    this.tries += 1;
    this.table.connection(t("Connection lost: reconnecting in {n} s…", { n: Math.ceil(delay / 1000) }));
    this.timer = setTimeout(() => this.open(), delay);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
  }

  // ``quiet``: a message that may wait for the next connection (its hello says the same).
  send(msg, quiet) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      if (!quiet) status(t("Not connected: wait a moment and try again."));
      return false;
    }
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  act(action) {
    if (this.pending) return;
    status("");
    if (this.send({ type: "action", action })) this.pending = true;
    this.table.render();
  }

  receive(msg) {
    if (msg.type === "state") {
      const start = msg.events_start;
      if (start === 0) {
        this.events = msg.events.slice();
        this.log += 1; // a new log (a new game, or a full state): the log is drawn again
      }
      else if (start === this.events.length) this.events.push(...msg.events);
      else this.send({ type: "sync" });
      // A state of changes carries only the keys of room and view that changed since the last one.
      const room = msg.changes ? { ...this.room, ...msg.room } : msg.room;
      const sent = msg.changes ? { ...this.sentView, ...msg.view } : msg.view;
      this.sentView = sent;
      this.room = room;
      this.view = { ...sent, players: localPlayers(sent.players, room.seats) };
      if (start === 0) this.goSeen = this.events.length; // a go already said is not asked about again
      this.tries = 0;
      this.pending = false;
      this.lost = false;
      this.stamp = ++this.table.stamp;
      this.table.render();
    } else if (msg.type === "review") {
      this.review = { log: this.log, review: msg.review };
      this.table.render();
    } else if (msg.type === "hint") {
      this.hint = { stamp: this.stamp, action: msg.action, reason: msg.reason };
      this.table.render();
    } else if (msg.type === "error") {
      this.pending = false;
      // A review asked for and refused (over the allowance, say) gets no answer: it may be asked again.
      if (this.reviewAsked === this.log) this.reviewAsked = null;
      this.lastError = msg.message;
      status(msg.message || msg.code || "error");
      this.table.render();
    }
  }
}

// ----------------------------------------------------------------- the table

class Table {
  constructor(rec) {
    this.rec = rec;
    this.stamp = 0;
    this.revealed = null;
    this.selected = new Set();
    this.selectedFor = "";
    this.logKey = "";
    this.logCount = 0;
    this.conns = new Map(rec.keys.map((k) => [k.seat, new Conn(this, k.seat, k.key)]));
  }

  start() {
    this.connection(t("Connecting…"));
    for (const c of this.conns.values()) c.open();
    this.ping = setInterval(() => {
      for (const c of this.conns.values()) if (c.ws && c.ws.readyState === WebSocket.OPEN) c.send({ type: "ping" });
    }, 25000);
  }

  stop() {
    clearInterval(this.ping);
    for (const c of this.conns.values()) c.stop();
  }

  // Reconnect every closed seat at once (the page came back, the network returned).
  wake() {
    for (const c of this.conns.values()) if (!c.ws && !c.stopped && !c.lost) c.open();
  }

  // The seat key is kept: a server restarted on the wrong database answers "no room" for a game it may
  // have again later. Only the player forgets a game (Forget on the start screen).
  fatal(code, reason) {
    this.stop();
    const why = code === 4410 ? t("This room expired after 7 days without play") : code === 4404 ? t("This room no longer exists") : t("This device's seat key was refused");
    const problem = `${why}: ${reason || t(FATAL[code])}`;
    updateGame(this.rec.room, { problem });
    status(t("{problem}. The game is still saved on this device: try it again later, or choose Forget to remove it.", { problem }), "error");
    go("");
  }

  // A friend who lost their link: their seat's key is revoked and the invitation takes it back.
  reopen(seat) {
    const mine = [...this.conns.values()].find((c) => c.ws && c.ws.readyState === WebSocket.OPEN);
    if (mine) mine.send({ type: "reopen", seat });
  }

  connection(text) {
    $("conn").textContent = text;
  }

  leader() {
    let best = null;
    for (const c of this.conns.values()) if (c.view && (!best || c.stamp > best.stamp)) best = c;
    return best;
  }

  send(msg, seats) {
    // A new game names the game it replaces, so a late click cannot propose replacing the next one.
    const lead = this.leader();
    if (msg.type === "new_game" && lead && lead.room) msg = { ...msg, game: lead.room.game };
    for (const s of seats) this.conns.get(s)?.send(msg);
  }

  render() {
    const lead = this.leader();
    const anyOpen = [...this.conns.values()].some((c) => c.ws && c.ws.readyState === WebSocket.OPEN && c.view);
    const lost = [...this.conns.values()].some((c) => c.lost);
    show($("reconnect-row"), lost);
    if (anyOpen) this.connection("");
    // Without a connection nothing sent would arrive: the table says so and the hand cannot be used.
    const offline = !anyOpen;
    $("table").classList.toggle("offline", offline);
    show($("reconnecting"), offline && Boolean(lead));
    if (!lead) return;
    const room = lead.room;
    const lview = lead.view;
    const multi = this.conns.size > 1;
    const between = room.between_hands;
    const acting = between ? [] : lview.to_act.filter((s) => this.conns.has(s) && this.conns.get(s).view);
    let shown = acting.length ? this.conns.get(acting[0]) : this.conns.get(this.revealed) || lead;
    if (!shown.view) shown = lead;
    // Nobody's cards are shown between hands; the next player to act taps the curtain first.
    if (multi && acting.length === 0) this.revealed = null;
    const curtain = multi && acting.length > 0 && shown.seat !== this.revealed;
    const hidden = multi && (curtain || acting.length === 0);
    const view = shown.view;
    const you = shown.seat;

    updateGame(this.rec.room, {
      names: view.players,
      scores: view.scores,
      over: view.phase === "over",
      game: room.game,
      mode: room.mode,
      profile: room.profile?.name ?? this.rec.profile,
      problem: undefined,
    });

    // Who is missing, the invitation, a proposed new game.
    const waiting = room.waiting_for || [];
    const unjoinedSeats = room.seats.filter((x) => x.kind === "human" && !x.joined).map((x) => x.seat);
    const unjoined = unjoinedSeats.length;
    const away = room.seats.filter((x) => x.kind === "human" && x.joined && !x.connected).map((x) => view.players[x.seat] ?? x.name);
    const missing = [];
    if (unjoined) missing.push(unjoined === 1 ? t("a friend to join") : t("{n} friends to join", { n: words(unjoined) }));
    if (away.length) missing.push(t("{names} to connect", { names: list(away) }));
    if (!missing.length && waiting.length) missing.push(t("{names} to connect", { names: list(waiting) }));
    this.missing = waiting.length ? t("Waiting for {what}", { what: list(missing) }) : "";
    show($("waiting"), waiting.length > 0);
    $("waiting").textContent = this.missing;
    const invite = [...this.conns.values()].map((c) => c.room?.invite).find((x) => x);
    show($("invite"), Boolean(invite));
    if (invite) {
      const link = `${location.origin}/#join=${encodeURIComponent(invite)}`;
      if ($("invite-link").value !== link) $("invite-link").value = link;
      // A loopback address opens only on this machine: a friend elsewhere could never use the link.
      const local = ["127.0.0.1", "localhost", "[::1]", "::1"].includes(location.hostname) || location.hostname.startsWith("127.");
      show($("invite-warning"), local);
      $("invite-warning").textContent = local
        ? t("This link works only on this computer ({host}): a friend on another machine cannot open it. To play over the network, start the server with cribbage serve --host 0.0.0.0 and open the board at this computer's network address.", { host: location.hostname })
        : "";
    }
    this.renderLinks(room);
    this.renderProposal(room, lview);

    // Between hands the table still shows the deal whose show is being read, not the next deal.
    const deal = between ? between.deal : view.deal;
    const past = between ? this.pastDeal(shown.events, deal) : null;
    const dealerSeat = past ? past.dealer : view.dealer;
    const dealer = view.players[dealerSeat];

    // Scores, board, seats, the middle of the table.
    this.renderScores(view, shown.events);
    $("deal-info").textContent = view.phase === "waiting" || unjoined
      ? ""
      : t("Deal {n} · {who} deals · {goal}", { n: deal + 1, who: dealer, goal: goalText(view) });
    this.renderSeats(view, room, hidden ? null : you, Boolean(between), unjoinedSeats, dealerSeat);
    const starter = past ? past.starter : view.starter;
    const noStarter = view.phase === "discard" && !past ? t("not turned yet") : "—";
    $("starter").replaceChildren(starter ? cardSpan(starter) : el("span", { class: "hint" }, noStarter));
    const mineCrib = dealerSeat === you && !hidden;
    const cribSize = past ? past.crib : view.crib_size;
    $("crib").textContent = mineCrib ? t("yours ({n} cards)", { n: cribSize }) : t("{who}'s ({n} cards)", { who: dealer, n: cribSize });
    $("count").textContent = past ? "—" : String(view.count);
    $("pile").replaceChildren(
      ...(past ? [] : view.pile).map(([s, c]) => cardSpan(c, { "data-pile-card": c, title: `${view.players[s]}: ${cardLabel(c)}` })),
    );

    // The curtain between seats sharing this device.
    show($("curtain"), curtain);
    if (curtain) {
      const b = $("curtain-btn");
      b.replaceChildren(t("Pass the device to {who} — tap to show your cards", { who: view.players[you] }));
      b.onclick = () => {
        this.revealed = you;
        this.render();
      };
    }

    // The hand and what this seat may do.
    show($("me"), !hidden);
    $("me").setAttribute("aria-busy", String(shown.pending));
    if (!hidden) this.renderMe(shown, view, room, offline);
    else {
      $("hand").replaceChildren();
      $("mine").textContent = "";
      show($("go"), false);
    }

    this.renderShow(view, room, shown);
    this.renderOver(view, room);
    renderReview(shown, view);
    this.renderLog(shown, view, multi, unjoined > 0);
    const canPropose = view.phase !== "over" && !room.new_game;
    if (!canPropose) show($("propose-ask"), false);
    show($("propose"), canPropose && $("propose-ask").hidden);
  }

  // What the table showed during ``deal`` (read from the events): its dealer, starter and crib.
  pastDeal(events, deal) {
    const past = { dealer: null, starter: null, crib: 0 };
    for (const ev of events) {
      if (ev.deal !== deal) continue;
      if (ev.kind === "deal") past.dealer = ev.seat;
      else if (ev.kind === "starter") past.starter = ev.cards[0] ?? null;
      else if (ev.kind === "crib") past.crib = ev.cards.length;
    }
    return past;
  }

  renderProposal(room, view) {
    const ng = room.new_game;
    show($("proposal"), Boolean(ng));
    if (!ng) return;
    const mine = [...this.conns.keys()];
    const humans = room.seats.filter((s) => s.kind === "human").map((s) => s.seat);
    const toAgree = humans.filter((s) => mine.includes(s) && !ng.agreed.includes(s));
    const by = view.players[ng.proposed_by] ?? t("Someone");
    const others = humans.filter((s) => !ng.agreed.includes(s)).map((s) => view.players[s]);
    $("proposal-text").textContent = toAgree.length
      ? t("{who} proposes a new game (this one would be abandoned).", { who: by })
      : t("New game proposed: waiting for {names} to agree.", { names: list(others) });
    show($("agree"), toAgree.length > 0);
    $("agree").onclick = () => this.send({ type: "new_game" }, toAgree);
    $("decline").textContent = toAgree.length ? t("Decline") : t("Withdraw");
    $("decline").onclick = () => this.send({ type: "decline" }, [mine.find((s) => humans.includes(s))]);
  }

  renderScores(view, events) {
    const names = sideNames(view);
    $("scores").replaceChildren(
      ...view.scores.map((p, side) =>
        el("div", { class: `score side${side}`, "data-testid": `score-${side}` }, el("span", { class: "who" }, names[side]), " ", el("b", { "data-testid": `score-value-${side}` }, String(p))),
      ),
    );
    // Pegs: the front peg at the score, the back peg where it stood before the last points.
    const pegs = view.scores.map(() => ({ front: 0, back: 0 }));
    for (const ev of events) {
      if (ev.scores.length !== pegs.length) continue;
      ev.scores.forEach((n, i) => {
        if (n !== pegs[i].front) pegs[i] = { front: n, back: pegs[i].front };
      });
    }
    view.scores.forEach((n, i) => {
      if (pegs[i].front !== n) pegs[i] = { front: n, back: pegs[i].front };
    });
    drawBoard($("board"), view, pegs);
    $("board").setAttribute("aria-label", t("Pegging board, {goal}: {scores}", { goal: goalText(view), scores: scoresText(view, view.scores) }));
  }

  // Each seat held here has its own link (to move it to another device before anything is lost); an
  // absent friend's seat can be reopened; the room's expiry deadline is shown.
  renderLinks(room) {
    const links = [...this.conns.values()].map((c) => [c.seat, `${location.origin}/#key=${c.key}`]);
    const linksKey = JSON.stringify([LANG, links]);
    if ($("seat-link-list").dataset.links !== linksKey) {
      $("seat-link-list").dataset.links = linksKey;
      $("seat-link-list").replaceChildren(
        ...links.map(([seat, link]) =>
          el("input", { readonly: "", value: link, "data-testid": `seat-link-${seat}`, "aria-label": t("Seat {n}'s link", { n: seat + 1 }) }),
        ),
      );
    }
    const reopenable = room.mode === "friend"
      ? room.seats.filter((x) => x.kind === "human" && x.joined && !x.connected && !this.conns.has(x.seat))
      : [];
    const reopenKey = JSON.stringify([LANG, reopenable.map((x) => [x.seat, x.name])]);
    if ($("reopen-row").dataset.seats !== reopenKey) {
      $("reopen-row").dataset.seats = reopenKey;
      $("reopen-row").replaceChildren(
        ...reopenable.map((x) =>
          el("button", { type: "button", class: "quiet", "data-testid": `reopen-seat-${x.seat}`, onclick: () => this.reopen(x.seat) },
            t("{who} lost their link? Make a new invitation for their seat", { who: x.name })),
        ),
      );
    }
    show($("reopen-row"), reopenable.length > 0);
    const expires = room.expires ? new Date(room.expires) : null;
    $("expires").textContent = expires && !Number.isNaN(expires.getTime())
      ? t("This room is kept until {when} if nobody plays; any move keeps it longer.", { when: expires.toLocaleString(LANG) })
      : "";
  }

  // A seat no friend has taken yet shows only that it waits: no dealer or turn, no cards.
  renderSeats(view, room, you, between, unjoined, dealer) {
    $("seats").replaceChildren(
      ...view.players.map((name, s) => {
        const info = room.seats.find((x) => x.seat === s);
        const empty = unjoined.includes(s);
        const badges = [];
        if (empty) badges.push(el("span", { class: "badge", "data-testid": `seat-waiting-${s}` }, t("waiting for your friend")));
        else {
          if (s === dealer) badges.push(el("span", { class: "badge" }, t("dealer")));
          if (view.to_act.includes(s) && view.phase !== "over" && !between && !unjoined.length) badges.push(el("span", { class: "badge act" }, t("to act")));
          if (info && info.kind !== "human") badges.push(el("span", { class: "badge" }, LEVEL_NAMES[info.kind] ? t(LEVEL_NAMES[info.kind]) : info.kind));
          if (info && info.kind === "human" && !info.connected) badges.push(el("span", { class: "badge off" }, t("offline")));
        }
        const backs = s === you || empty || between ? 0 : view.held[s] || 0;
        const held = Array.from({ length: backs }, () => el("span", { class: "card small back", "aria-hidden": "true" }));
        const laid = between ? [] : (view.laid[s] || []).map((c) => cardSpan(c, { "data-laid-card": c, class: "card small laid" }));
        return el(
          "div",
          { class: `seat${s === you ? " you" : ""}`, "data-testid": `seat-${s}` },
          el("div", { class: "seat-head" }, el("span", { class: "who", "data-testid": `seat-name-${s}` }, name), s === you ? ` ${t("(you)")}` : "", ...badges),
          el("div", { class: "seat-cards" }, ...held, ...laid),
        );
      }),
    );
  }

  renderMe(conn, view, room, offline) {
    const you = conn.seat;
    const rules = view.rules;
    const myTurn = view.to_act.includes(you) && !room.between_hands && !(room.waiting_for || []).length;
    const legal = new Set(view.legal);
    const goNow = offline ? null : conn.pendingGo();
    const discarding = view.phase === "discard" && myTurn && [...legal].some((a) => a.startsWith("discard"));
    const key = `${room.game}/${view.deal}/${you}`;
    if (this.selectedFor !== key) {
      this.selected = new Set();
      this.selectedFor = key;
    }
    for (const c of [...this.selected]) if (!view.hand.includes(c)) this.selected.delete(c);
    const cribOf = view.dealer === you ? t("your own crib") : t("{who}'s crib", { who: view.players[view.dealer] });

    let prompt;
    const others = (seats) => list(seats.filter((s) => s !== you).map((s) => view.players[s]));
    if (view.phase === "over") prompt = t("The game is over.");
    else if (room.between_hands) prompt = t("Read the show, then go on to the next hand.");
    else if ((room.waiting_for || []).length) prompt = `${this.missing}.`;
    else if (offline) prompt = t("Reconnecting to the server: wait before you play.");
    else if (goNow) prompt = t("No card of yours fits under 31 (the count was {n}): say Go.", { n: goNow.count });
    else if (view.claim && myTurn) {
      let what = "card";
      for (const ev of conn.events) if (ev.deal === view.deal && (ev.kind === "hand" || ev.kind === "crib")) what = ev.kind;
      if (view.phase === "play") what = "card";
      const thing = what === "hand" ? t("hand") : what === "crib" ? t("crib") : t("card");
      const mine = view.counting === null || view.counting === you;
      prompt = view.claim.kind === "count"
        ? mine
          ? what === "card"
            // The go or the last card's point is the card's too: a newcomer who leaves it out is taken for it.
            ? t("Count your card, with a go or last card: how many points?")
            : t("Count your {what}: how many points?", { what: thing })
          : t("Count {who}'s {what}: how many points?", { who: view.players[view.counting], what: thing })
        : t("{who} has counted: call muggins (the points missed) or pass.", { who: view.players[view.counting] ?? t("The count") });
    } else if (discarding) {
      prompt = rules.discards === 1
        ? t("Choose one card for {crib}.", { crib: cribOf })
        : t("Choose {n} cards for {crib}.", { n: words(rules.discards), crib: cribOf });
    } else if (view.phase === "play" && myTurn) prompt = t("Your turn, {who}: play a card (count {n}).", { who: view.players[you], n: view.count });
    else if (view.to_act.length) {
      const names = others(view.to_act);
      prompt = view.phase === "discard"
        ? t("Waiting for {names} to discard.", { names })
        : view.claim_stage
          ? t("Waiting for {names} to count.", { names })
          : t("Waiting for {names} to play.", { names });
    } else prompt = "";
    $("prompt").textContent = prompt;

    // The Go button: the engine has already said go for this seat (and scores it); the player
    // acknowledges it, as the help describes. It never holds the game up: laying the next card when
    // the turn comes back answers it as well.
    show($("go"), Boolean(goNow));
    $("go").onclick = () => {
      if (goNow) conn.goAcked = goNow.index;
      this.render();
    };

    const busy = conn.pending || offline;
    // Between hands the next deal's cards wait until the show has been read.
    $("hand").replaceChildren(
      ...(room.between_hands ? [] : view.hand).map((c) => {
        const sel = this.selected.has(c);
        const canPlay = view.phase === "play" && myTurn && legal.has(`play ${c}`);
        const red = isRed(c);
        const b = el(
          "button",
          {
            type: "button",
            class: `card${red ? " red" : ""}${sel ? " selected" : ""}${canPlay && !busy ? " playable" : ""}`,
            "data-card": c,
            "aria-label": cardLabel(c),
            "aria-pressed": discarding ? String(sel) : null,
            disabled: busy || !(discarding || canPlay),
          },
          cardText(c),
        );
        b.addEventListener("click", () => {
          if (discarding) {
            if (sel) this.selected.delete(c);
            else {
              if (this.selected.size >= rules.discards) {
                if (rules.discards !== 1) return void status(t("Lay away {n} cards: tap a chosen card to put it back.", { n: words(rules.discards) }), "info");
                this.selected.clear();
              }
              this.selected.add(c);
            }
            this.render();
          } else if (canPlay) {
            if (goNow) conn.goAcked = goNow.index; // laying the next card answers the go too
            conn.act(`play ${c}`);
          }
        });
        return b;
      }),
    );

    // Confirm a discard: the chosen cards must be one of the legal discards.
    const chosen = [...this.selected].sort().join(" ");
    const match = [...legal].find((a) => a.startsWith("discard") && a.slice(8).split(" ").filter(Boolean).sort().join(" ") === chosen);
    show($("confirm"), discarding);
    $("confirm").disabled = busy || !match || this.selected.size !== rules.discards;
    $("confirm").textContent = this.selected.size === rules.discards
      ? t("Lay away {cards}", { cards: cardsText([...this.selected]) })
      : t("Lay away {n}", { n: words(rules.discards) });
    $("confirm").onclick = () => match && conn.act(match);

    // Muggins: a number to declare or to call, and pass.
    const claim = myTurn ? view.claim : null;
    show($("claim"), Boolean(claim));
    if (claim) {
      const n = $("claim-n");
      const canCall = claim.max >= claim.min;
      n.min = String(claim.min);
      n.max = String(claim.max);
      show(n, canCall);
      show($("claim-go"), canCall);
      $("claim-go").textContent = claim.kind === "count" ? t("Count") : t("Muggins!");
      $("claim-go").disabled = busy;
      show($("claim-pass"), legal.has("pass"));
      $("claim-pass").disabled = busy;
      $("claim-pass").onclick = () => conn.act("pass");
      $("claim").onsubmit = (e) => {
        e.preventDefault();
        const v = Number(n.value);
        if (n.value === "" || !Number.isInteger(v) || v < claim.min || v > claim.max) {
          status(t("Enter a number from {min} to {max}.", { min: claim.min, max: claim.max }));
          return;
        }
        n.value = "";
        conn.act(`${claim.kind === "count" ? "count" : "muggins"} ${v}`);
      };
    }
    $("mine").textContent = view.discarded.length ? t("You laid away {cards} to {crib}.", { cards: cardsText(view.discarded), crib: cribOf }) : "";

    // Hints (the expert's choice) where no other person plays; a hint lasts until the state changes.
    show($("hint"), myTurn && room.mode !== "friend" && !goNow);
    $("hint").disabled = busy;
    $("hint").onclick = () => conn.send({ type: "hint" });
    const hint = conn.hint && conn.hint.stamp === conn.stamp ? conn.hint : null;
    show($("hint-text"), Boolean(hint));
    $("hint-text").textContent = hint ? t("Hint: {action} — {reason}.", { action: actionWords(hint.action), reason: cardsDrawn(hint.reason) }) : "";
  }

  // The show of the last counted deal: each hand and the crib, item by item.
  renderShow(view, room, conn) {
    const evs = conn.events;
    let deal = null;
    for (const ev of evs) if (ev.kind === "hand" || ev.kind === "crib") deal = ev.deal;
    const counting = view.phase === "show";
    const won = evs.find((ev) => ev.kind === "win");
    const over = view.phase === "over" && won && won.deal === deal;
    const on = deal !== null && (Boolean(room.between_hands) || over || (counting && deal === view.deal));
    show($("show"), on);
    if (!on) return;
    let starter = null;
    for (const ev of evs) if (ev.deal === deal && ev.kind === "starter") starter = ev.cards[0];
    const blocks = [];
    let block = null;
    for (const ev of evs) {
      if (ev.deal !== deal) continue;
      if (ev.kind === "hand" || ev.kind === "crib") {
        const who = view.players[ev.seat];
        const title = el(
          "h3",
          {},
          `${capitalized(ev.kind === "hand" ? t("{who}'s hand", { who }) : t("{who}'s crib", { who }))} `,
          ...ev.cards.map((c) => cardSpan(c)),
          starter ? ` ${t("+ starter")} ` : "",
          starter ? cardSpan(starter) : "",
        );
        const items = el("ul", { class: "items" });
        if (ev.note !== "to count") {
          for (const it of ev.items) items.append(itemLine(it));
          title.append(el("b", { class: "pts", "data-testid": "show-points" }, `= ${ev.points}`));
        }
        block = el("div", { class: "show-block", "data-testid": `show-${ev.kind}`, "data-seat": ev.seat }, title, items);
        if (ev.note !== "to count") block.append(el("p", { class: "spoken" }, `${ev.spoken}.`));
        blocks.push(block);
      } else if (block && ["count", "muggins", "penalty", "missed"].includes(ev.kind)) {
        const line = describe(ev, view, {}, true);
        if (typeof line === "string") block.append(el("p", { class: "spoken" }, line));
      }
    }
    $("show-title").textContent = t("The show · deal {n}", { n: deal + 1 });
    $("show-list").replaceChildren(...blocks);
    const bh = room.between_hands;
    const mine = [...this.conns.keys()];
    const humans = room.seats.filter((s) => s.kind === "human").map((s) => s.seat);
    const notReady = bh ? mine.filter((s) => humans.includes(s) && !bh.ready.includes(s)) : [];
    show($("next"), notReady.length > 0);
    $("next").onclick = () => {
      status("");
      this.send({ type: "next" }, notReady);
    };
    const others = bh ? humans.filter((s) => !bh.ready.includes(s) && !mine.includes(s)).map((s) => view.players[s]) : [];
    $("next-wait").textContent = bh && !notReady.length && others.length ? t("Waiting for {names} to go on.", { names: list(others) }) : "";
  }

  renderOver(view, room) {
    const over = view.phase === "over";
    show($("over"), over);
    if (!over) return;
    const names = sideNames(view);
    const w = view.winner ?? 0;
    const who = names[w];
    const many = who.includes(" & ");
    const [a, b] = view.scores.length === 2 ? [view.scores[w], view.scores[1 - w]] : [null, null];
    $("winner").textContent = a === null
      ? many ? t("{who} win.", { who }) : t("{who} wins.", { who })
      : many ? t("{who} win, {a} to {b}.", { who, a, b }) : t("{who} wins, {a} to {b}.", { who, a, b });
    const hist = room.history || [];
    $("history").textContent = hist.length
      ? t("Games won here: {list}", { list: names.map((n, i) => `${n} ${hist.filter((h) => h.winner === i).length + (i === w ? 1 : 0)}`).join(" · ") })
      : "";
    $("new-game").onclick = () => this.send({ type: "new_game" }, [...this.conns.keys()].slice(0, 1));
  }

  // ``waitingFriend``: no friend has joined yet, so nothing has happened with them (the engine's cut
  // and deal are made with a placeholder seat): the log only says whom the table waits for.
  renderLog(conn, view, multi, waitingFriend) {
    const key = `${conn.seat}/${conn.log}/${LANG}/${waitingFriend}/${view.players.join("\n")}`;
    const log = $("log");
    if (this.logKey !== key || conn.events.length < this.logCount) {
      log.replaceChildren();
      this.logCount = 0;
      this.logKey = key;
      this.logCtx = { dealer: view.dealer };
    }
    if (waitingFriend) {
      if (!log.childElementCount) log.append(el("li", { class: "dim" }, t("Waiting for your friend: the game starts when they join.")));
      return;
    }
    const box = log;  // the list scrolls, under the log's heading
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    for (const ev of conn.events.slice(this.logCount)) {
      const line = describe(ev, view, this.logCtx, !multi);
      if (!line) continue;
      if (typeof line === "string") log.append(el("li", {}, line));
      else if (line.heading) log.append(el("li", { class: "heading" }, line.heading));
      else log.append(el("li", { class: "dim" }, line.dim));
    }
    this.logCount = conn.events.length;
    if (atEnd) box.scrollTop = box.scrollHeight;
  }
}

// ----------------------------------------------------------------- the coach

// After a game, the server's review of this seat's decisions (the numbers of `cribbage review`): the
// points lost per deal, the marks, and each marked decision with the expert's choice and its reason.
// ``conn.review`` belongs to the log it was asked in: a new game (or a full state) hides it again.
const MARK_WORDS = { inaccuracy: N_("inaccuracy"), mistake: N_("mistake"), blunder: N_("blunder") };

function pointsText(n) {
  return n.toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function renderReview(conn, view) {
  const over = view.phase === "over";
  show($("review"), over);
  if (!over) return;
  const review = conn.review && conn.review.log === conn.log ? conn.review.review : null;
  const asked = conn.reviewAsked === conn.log;
  show($("review-ask"), !review);
  $("review-ask").disabled = asked;
  $("review-ask").onclick = () => {
    if (conn.send({ type: "review" })) conn.reviewAsked = conn.log;
    conn.table.render();
  };
  const list = $("review-list");
  if (!review) {
    $("review-summary").textContent = asked ? t("The coach is going through your game…") : "";
    list.replaceChildren();
    renderChart(null);
    return;
  }
  const s = review.summary;
  $("review-summary").textContent = t(
    "Points lost per deal: {discard} in the discard, {play} in the play. Blunders: {blunders}, mistakes: {mistakes}, inaccuracies: {inaccuracies}.",
    {
      discard: pointsText(s.discard_lost_per_deal),
      play: pointsText(s.play_lost_per_deal),
      blunders: s.marks.blunder,
      mistakes: s.marks.mistake,
      inaccuracies: s.marks.inaccuracy,
    },
  );
  const marked = review.decisions.filter((d) => d.mark);
  list.replaceChildren(...marked.map((d) => el(
    "li",
    { class: `review-${d.mark}`, "data-testid": "review-decision" },
    el("strong", {}, t(MARK_WORDS[d.mark])),
    " ",
    t("Deal {deal}: you chose to {chosen}, the expert would {best}: {points} points lost.", {
      deal: d.deal,
      chosen: actionWords(d.chosen),
      best: actionWords(d.best),
      points: pointsText(d.points_lost),
    }),
    d.reason ? el("div", { class: "hint" }, cardsDrawn(d.reason)) : "",
  )));
  if (!marked.length) list.append(el("li", { class: "hint" }, t("Nothing to mark: the expert agrees with your choices.")));
  renderChart(review);
}

// The win-chance graph (docs/review.md): the seat's chance to win at each deal's start, after each
// decision and at the end, as an SVG chart; hovering over a point or tapping it shows what it was; the
// biggest swings are drawn larger, in another colour. Where no win table is at hand, the lead in points.
function svgOf(tag, attrs, ...kids) {
  const e = svg(tag, attrs);
  for (const kid of kids) e.append(kid);
  return e;
}

function chanceText(chances, value) {
  if (chances.measure === "win") {
    const percent = (100 * value).toLocaleString(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return t("{percent}% chance to win", { percent });
  }
  const signed = (value > 0 ? "+" : "") + pointsText(value);
  if (chances.measure === "game_points") return t("{points} expected game points", { points: signed });
  return t("lead {points}", { points: (value > 0 ? "+" : "") + Math.round(value) });
}

function pointWords(review, point) {
  const value = chanceText(review.chances, point.value);
  if (point.kind === "start") return t("Deal {deal} begins: {value}", { deal: point.deal, value });
  if (point.kind === "end") return t("End of the game: {value}", { value });
  const d = review.decisions[point.decision];
  return t("Deal {deal}: you chose to {chosen}; after it, {value}", { deal: d.deal, chosen: actionWords(d.chosen), value });
}

let chartShown = null;

function renderChart(review) {
  const box = $("review-chart");
  const caption = $("review-chart-caption");
  // Drawn once per review: a later state message must not take away the point the player chose.
  if (review && review === chartShown) return;
  chartShown = review;
  const chances = review ? review.chances : null;
  const points = chances ? chances.points : [];
  show(box, points.length > 1);
  show(caption, points.length > 1);
  if (points.length < 2) {
    box.replaceChildren();
    return;
  }
  const W = 600, H = 170, left = 40, right = 8, top = 10, bottom = 22;
  const span = chances.high - chances.low || 1;
  const x = (i) => left + (i * (W - left - right)) / (points.length - 1);
  const y = (v) => top + ((chances.high - Math.min(chances.high, Math.max(chances.low, v))) * (H - top - bottom)) / span;
  const middle = (chances.high + chances.low) / 2;
  const scale = (v) => (chances.measure === "win" ? `${Math.round(100 * v)}%` : String(Math.round(v * 10) / 10));
  const chart = svgOf("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "data-testid": "review-svg" });
  const title = chances.measure === "lead"
    ? t("No win table for this game's rules: the chart shows your lead in points.")
    : chances.measure === "game_points" ? t("Your expected game points over the game") : t("Your chance to win over the game");
  chart.append(svgOf("title", {}, title));
  for (const v of [chances.high, middle, chances.low]) {
    chart.append(svgOf("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === middle ? "even" : "grid" }));
    chart.append(svgOf("text", { x: left - 4, y: y(v) + 4, class: "scale" }, scale(v)));
  }
  points.forEach((p, i) => {
    if (p.kind === "start") chart.append(svgOf("text", { x: x(i), y: H - 6, class: "deal" }, String(p.deal)));
  });
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  chart.append(svgOf("polyline", { points: line, class: "trace" }));
  const swings = new Set(chances.swings);
  const choose = (p, dot) => {
    caption.textContent = pointWords(review, p);
    for (const other of chart.querySelectorAll(".chosen")) other.classList.remove("chosen");
    dot.classList.add("chosen");
  };
  points.forEach((p, i) => {
    const swing = swings.has(i);
    const dot = svgOf(
      "circle",
      { cx: x(i), cy: y(p.value), r: swing ? 7 : 4, class: swing ? "point swing" : "point", "data-testid": "chart-point", "data-index": i, tabindex: 0 },
      svgOf("title", {}, pointWords(review, p)),
    );
    dot.addEventListener("mouseenter", () => choose(p, dot));
    dot.addEventListener("click", () => choose(p, dot));
    dot.addEventListener("focus", () => choose(p, dot));
    chart.append(dot);
  });
  box.replaceChildren(el("p", { class: "hint", "data-testid": "review-chart-title" }, title), chart);
  caption.textContent = chances.swings.length
    ? t("The biggest swings are drawn larger. Hover over a point or tap it to see the decision.")
    : t("Hover over a point or tap it to see the decision.");
}

// ----------------------------------------------------------------- the discard trainer

// Six cards from the server (POST /api/practice/discards: the numbers of `cribbage practice discards`);
// tap two, lay them away, and see the choice's rank among the fifteen beside the best, the expert's
// choice with its reason, and the running score. The long-run totals are kept on this device.
const PRACTICE = "cribcore.practice";
const practice = { seed: null, hand: 1, deal: null, selected: new Set(), result: null, score: { hands: 0, best: 0, lost: 0 } };

function practiceTotals() {
  try {
    const kept = JSON.parse(localStorage.getItem(PRACTICE));
    if (kept && Number.isFinite(kept.hands) && Number.isFinite(kept.best) && Number.isFinite(kept.lost)) return kept;
  } catch {
    /* nothing kept, or not ours */
  }
  return { hands: 0, best: 0, lost: 0 };
}

function scoreWords(score, msgid) {
  const share = score.hands ? Math.round((100 * score.best) / score.hands) : 0;
  const lost = (score.hands ? score.lost / score.hands : 0).toLocaleString(LANG, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return t(msgid, { best: score.best, hands: score.hands, share: `${share}%`, lost });
}

async function openPractice() {
  leaveTable();
  screen("practice");
  if (practice.seed === null) {
    const asked = Number(new URLSearchParams(location.search).get("seed"));
    practice.seed = Number.isInteger(asked) && asked >= 0 ? asked : Math.floor(Math.random() * 2 ** 32);
  }
  if (!practice.deal) await dealPractice();
  renderPractice();
}

async function dealPractice() {
  practice.selected.clear();
  practice.result = null;
  practice.deal = null;
  try {
    practice.deal = await api("/api/practice/discards", { seed: practice.seed, hand: practice.hand });
  } catch (e) {
    status(t("Could not deal: {error}", { error: e.message }));
  }
}

async function answerPractice() {
  const { deal } = practice;
  if (!deal || practice.selected.size !== 2 || practice.result) return;
  const discard = deal.cards.filter((c) => practice.selected.has(c));
  try {
    const r = await api("/api/practice/discards", { seed: practice.seed, hand: practice.hand, discard, lang: LANG });
    practice.result = r;
    const best = r.choice.rank === 1 ? 1 : 0;
    for (const score of [practice.score]) {
      score.hands += 1;
      score.best += best;
      score.lost += r.points_lost;
    }
    const total = practiceTotals();
    try {
      localStorage.setItem(PRACTICE, JSON.stringify({ hands: total.hands + 1, best: total.best + best, lost: total.lost + r.points_lost }));
    } catch {
      /* private mode: the totals last this page */
    }
  } catch (e) {
    status(t("Could not judge: {error}", { error: e.message }));
  }
  renderPractice();
}

function figure(n) {
  return n.toLocaleString(LANG, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function renderPractice() {
  const { deal, result } = practice;
  $("practice-role").textContent = deal
    ? t(deal.dealer ? N_("Hand {n}: you deal, the crib is yours.") : N_("Hand {n}: the opponent deals, the crib is theirs."), { n: deal.hand })
    : "";
  $("practice-hand").replaceChildren(
    ...(deal ? deal.cards : []).map((c) => {
      const sel = practice.selected.has(c);
      const b = el(
        "button",
        { type: "button", class: `card${isRed(c) ? " red" : ""}${sel ? " selected" : ""}`, "data-card": c, "aria-label": cardLabel(c), "aria-pressed": String(sel), disabled: !!result },
        cardText(c),
      );
      b.addEventListener("click", () => {
        if (sel) practice.selected.delete(c);
        else if (practice.selected.size < 2) practice.selected.add(c);
        else return void status(t("Lay away {n} cards: tap a chosen card to put it back.", { n: words(2) }), "info");
        renderPractice();
      });
      return b;
    }),
  );
  show($("practice-confirm"), !result);
  $("practice-confirm").disabled = practice.selected.size !== 2;
  $("practice-confirm").onclick = answerPractice;
  show($("practice-next"), !!result);
  $("practice-next").onclick = async () => {
    practice.hand += 1;
    await dealPractice();
    renderPractice();
  };
  const box = $("practice-result");
  if (!result) {
    box.replaceChildren();
  } else {
    const n = 15;
    const verdict = result.choice.rank === 1
      ? t("The best net: rank 1 of {n}.", { n })
      : t("Rank {rank} of {n}: {points} points below the best net.", { rank: result.choice.rank, n, points: figure(result.points_lost) });
    const crib = (o) => (o.crib === "yours" ? "+" : "−") + figure(o.expected_crib);
    const row = (label, o) => el("tr", {}, el("th", {}, label), el("td", {}, cardsText(o.keep)), el("td", {}, cardsText(o.discard)),
      el("td", { class: "n" }, figure(o.expected_hand)), el("td", { class: "n" }, crib(o)), el("td", { class: "n" }, figure(o.net)));
    const rows = [row(t("yours"), result.choice)];
    if (result.choice.rank !== 1) rows.push(row(t("best"), result.best));
    const expert = result.expert.agrees
      ? t("The expert lays away the same cards.")
      : t("The expert lays away {cards}: {reason}", { cards: cardsText(result.expert.discard), reason: result.expert.reason });
    box.replaceChildren(
      el("p", { class: result.choice.rank === 1 ? "good" : "", "data-testid": "practice-verdict" }, verdict),
      el("table", { class: "figures", "data-testid": "practice-figures" },
        el("tr", {}, ...["", t("keep"), t("discard"), t("hand"), t("crib"), t("net")].map((h) => el("th", {}, h))), ...rows),
      el("p", { class: "hint", "data-testid": "practice-expert" }, expert),
    );
  }
  $("practice-score").textContent = practice.score.hands
    ? scoreWords(practice.score, N_("Score: {best} of {hands} best ({share}), {lost} points lost a hand on average"))
    : "";
  const total = practiceTotals();
  $("practice-long").textContent = total.hands
    ? scoreWords(total, N_("On this device: {best} of {hands} best ({share}), {lost} points lost a hand on average"))
    : "";
}

// ----------------------------------------------------------------- screens

let table = null;
let profiles = null;

function screen(name) {
  for (const s of ["start", "join", "table", "practice"]) show($(s), s === name);
}

function leaveTable() {
  if (table) table.stop();
  table = null;
  $("conn").textContent = "";
}

// A table opened shows nothing of the game shown before it: until this game's server answers, the
// last game's hand, scores and pile would pass for this one's.
function clearTable() {
  for (const id of ["log", "scores", "deal-info", "board", "seats", "starter", "crib", "pile", "hand", "prompt", "mine", "show-list"]) $(id).replaceChildren();
  $("count").textContent = "0";
  for (const id of ["over", "review", "show", "curtain", "hint-text", "claim", "confirm", "go", "hint"]) show($(id), false);
}

function go(hash) {
  if (location.hash === hash || (!hash && !location.hash)) route();
  else location.hash = hash;
}

function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("join")) {
    const code = h.get("join");
    const saved = loadGames().find((g) => g.invite === code);
    if (saved) return go(`#room=${encodeURIComponent(saved.room)}`);
    leaveTable();
    screen("join");
    $("join-name").value = $("join-name").value || localStorage.getItem(NAME) || "";
    $("join-go").onclick = () => join(code);
    return;
  }
  if (h.get("key")) return openSeatLink(h.get("key"));
  if (h.has("practice")) return openPractice();
  const id = h.get("room");
  if (id) {
    const rec = getGame(id);
    if (rec) {
      if (table && table.rec.room === id) return;
      leaveTable();
      clearTable();
      screen("table");
      table = new Table(rec);
      table.start();
      return;
    }
    status(t("That game is not saved on this device."));
  }
  leaveTable();
  screen("start");
  renderStart();
}

function renderSaved() {
  const games = loadGames();
  show($("no-saved"), games.length === 0);
  $("saved").replaceChildren(
    ...games.map((g) => {
      const names = g.names || [];
      const mode = g.mode === "computer" ? t("against the computer") : g.mode === "same-device" ? t("on this device") : t("with a friend");
      const score = g.scores ? ` · ${g.scores.join("–")}${g.over ? ` ${t("(over)")}` : ""}` : "";
      const problem = typeof g.problem === "string" ? el("span", { class: "hint error", "data-testid": "saved-problem" }, ` ${g.problem}`) : "";
      return el(
        "li",
        { "data-room": g.room, "data-testid": "saved-game" },
        el("span", { class: "saved-name" }, names.length ? names.join(t(" vs ")) : t("New game"), el("span", { class: "hint" }, ` ${mode}${score}`), problem),
        el("span", { class: "row" },
          el("button", { type: "button", "data-testid": "resume-game", onclick: () => go(`#room=${encodeURIComponent(g.room)}`) }, t("Resume")),
          el("button", { type: "button", class: "quiet", "data-testid": "forget-game", onclick: () => (dropGame(g.room), renderSaved()) }, t("Forget")),
        ),
      );
    }),
  );
}

function seatsOfProfile() {
  const p = profiles?.profiles.find((x) => x.name === $("profile").value);
  return p ? p.seats : 2;
}

function renderOtherNames() {
  const n = seatsOfProfile();
  const box = $("other-names");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(
    ...Array.from({ length: n - 1 }, (_, i) =>
      el("label", { class: "field" }, t("Player {n}'s name", { n: i + 2 }),
        el("input", { maxlength: 24, "data-testid": `other-name-${i + 1}`, placeholder: t("Player {n}", { n: i + 2 }), value: old[i] || "" })),
    ),
  );
}

async function loadProfiles(again) {
  if (profiles && !again) return;
  if (!profiles) {
    try {
      profiles = await api("/api/profiles");
    } catch (e) {
      status(t("Cannot load the rules: {error}", { error: e.message }));
      return;
    }
  }
  const sel = $("profile");
  const chosen = sel.value;
  sel.replaceChildren(...profiles.profiles.map((p) => el("option", { value: p.name }, t("{name} ({n} players)", { name: profileTitle(p.name), n: p.seats }))));
  if (chosen) sel.value = chosen;
  const describeProfile = () => {
    const found = profiles.profiles.find((p) => p.name === sel.value);
    $("profile-desc").textContent = (found && ((found.descriptions || {})[LANG] || found.description)) || "";
    renderOtherNames();
  };
  sel.onchange = describeProfile;
  describeProfile();
  $("levels").replaceChildren(
    ...profiles.levels.map((lv) =>
      // All alike: any of them starts the game, none is chosen beforehand.
      el("button", { type: "button", "data-testid": `start-computer-${lv}`, onclick: () => create("computer", lv) },
        LEVEL_BUTTONS[lv] ? t(LEVEL_BUTTONS[lv]) : lv),
    ),
  );
}

function renderStart(again) {
  const name = $("name");
  if (!name.value) name.value = localStorage.getItem(NAME) || "";
  renderSaved();
  loadProfiles(again);
}

function myName(input, fallback) {
  const v = input.value.trim();
  if (v) {
    try {
      localStorage.setItem(NAME, v);
    } catch {
      /* private mode */
    }
  }
  return v || fallback;
}

let busy = false;
async function create(mode, level) {
  if (busy) return;
  const first = myName($("name"), t("Player {n}", { n: 1 }));
  const names = [first];
  if (mode === "same-device") {
    [...$("other-names").querySelectorAll("input")].forEach((i, k) => names.push(i.value.trim() || t("Player {n}", { n: k + 2 })));
  }
  const body = { mode, profile: $("profile").value || "standard", names };
  if (level) body.level = level;
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
  busy = true;
  status(t("Starting the game…"));
  // A house rule's first game on a server waits for the computer's tables (up to about a minute).
  const slow = setTimeout(() => status(t("Still starting: the computer's first game under a house rule on this server takes up to a minute to prepare.")), 3000);
  try {
    const r = await api("/api/rooms", body);
    status("");
    putGame({ room: r.room, mode: r.mode, profile: r.profile, keys: r.keys, invite: r.invite, names, created: Date.now() });
    go(`#room=${encodeURIComponent(r.room)}`);
  } catch (e) {
    status(t("Could not start the game: {error}", { error: e.message }));
  } finally {
    clearTimeout(slow);
    busy = false;
  }
}

// A seat link (#key=KEY, as `cribbage join` shows it) moves a seat to this browser.
async function openSeatLink(key) {
  const room = key.split(".")[0];
  history.replaceState(null, "", location.pathname + location.search); // the key leaves the address bar
  try {
    const r = await fetch(`/api/rooms/${encodeURIComponent(room)}/state`, { headers: { "X-Seat-Key": key } });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || t("the server answered {status}", { status: r.status }));
    putGame({ room, mode: data.room.mode, profile: data.room.profile.name, keys: [{ seat: data.room.you, key }], created: Date.now() });
    go(`#room=${encodeURIComponent(room)}`);
  } catch (e) {
    go("");
    status(t("Could not open that seat: {error}", { error: e.message }));
  }
}

async function join(code) {
  if (busy) return;
  const name = $("join-name").value.trim();
  if (!name) {
    status(t("Type your name first."));
    $("join-name").focus();
    return;
  }
  myName($("join-name"), name);
  busy = true;
  status("");
  try {
    const r = await api("/api/join", { invite: code, name });
    putGame({ room: r.room, mode: "friend", profile: r.profile, keys: [{ seat: r.seat, key: r.key }], invite: code, created: Date.now() });
    go(`#room=${encodeURIComponent(r.room)}`);
  } catch (e) {
    status(t("Could not join: {error}", { error: e.message }));
  } finally {
    busy = false;
  }
}

// ----------------------------------------------------------------- wiring

$("start-same").onclick = () => create("same-device");
$("start-practice").onclick = () => go("#practice");
$("start-friend").onclick = () => create("friend");
$("clear").onclick = () => show($("clear-ask"), true);
$("clear-no").onclick = () => show($("clear-ask"), false);
$("clear-yes").onclick = () => {
  try {
    for (const k of Object.keys(localStorage)) if (k.startsWith("cribcore.")) localStorage.removeItem(k);
  } catch {
    /* nothing stored */
  }
  $("name").value = "";
  show($("clear-ask"), false);
  renderSaved();
  status(t("Every saved game was forgotten on this device."), "info");
};
$("copy").onclick = async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
  $("copy").textContent = t("Copied");
  setTimeout(() => ($("copy").textContent = t("Copy link")), 2000);
};
$("invite-link").onfocus = (e) => e.target.select();
$("reconnect").onclick = () => {
  if (!table) return;
  for (const c of table.conns.values()) if (c.lost) ((c.lost = false), c.open());
  status("");
  table.render();
};
$("propose").onclick = () => {
  const lead = table && table.leader();
  if (!lead) return;
  const humans = lead.room.seats.filter((x) => x.kind === "human").length;
  $("propose-text").textContent =
    humans > table.conns.size ? t("Propose a new game to the others?") : t("Abandon this game and start a new one?");
  show($("propose"), false);
  show($("propose-ask"), true);
};
$("propose-no").onclick = () => {
  show($("propose-ask"), false);
  show($("propose"), true);
};
$("propose-yes").onclick = () => {
  show($("propose-ask"), false);
  if (!table) return;
  const lead = table.leader();
  const seat = lead && lead.view.to_act.find((s) => table.conns.has(s));
  table.send({ type: "new_game" }, [seat ?? [...table.conns.keys()][0]]);
};
$("leave").onclick = () => go("");
$("home").onclick = (e) => {
  e.preventDefault();
  go("");
};
window.addEventListener("hashchange", route);
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => table && table.render());
});
window.addEventListener("online", () => table && table.wake());
document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && table && table.wake());
$("lang").onchange = (e) => setLang(e.target.value, true);
setLang(chosenLang(), false).then(route);
