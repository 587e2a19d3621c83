// The cribbage board: a client of the protocol in docs/server.md. It decides nothing: it shows each
// seat's own view as the server sends it and sends the actions a player chooses. Every name and every
// text from the server is inserted as text (textContent / text nodes), never as markup.

const $ = (id) => document.getElementById(id);
const GAMES = "cribcore.games";
const NAME = "cribcore.name";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };
const FATAL = { 4403: "bad key", 4404: "no room", 4410: "expired" };

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

function cardText(c) {
  if (!isStandard(c)) return c;
  return (c[0] === "T" ? "10" : c[0]) + (SUITS[c[1]] || c[1]);
}

function cardLabel(c) {
  if (!isStandard(c)) return `card ${c}`;
  return `${RANK_NAMES[c[0]] || c[0]} of ${SUIT_NAMES[c[1]] || c[1]}`;
}

function cardSpan(c, attrs) {
  const red = isRed(c);
  return el("span", { class: `card small${red ? " red" : ""}`, title: cardLabel(c), ...attrs }, cardText(c));
}

function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

// An action's text form in words: "discard 5H 5D" -> "lay away 5♥ 5♦".
function actionWords(action) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "discard") return `lay away ${cardsText(rest)}`;
  if (verb === "play") return `play ${cardsText(rest)}`;
  if (verb === "muggins") return `call muggins for ${rest[0]}`;
  if (verb === "pass") return "let the count stand";
  return action;
}

function list(names) {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
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

const ONES = (
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen " +
  "sixteen seventeen eighteen nineteen"
).split(" ");
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

function words(n) {
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
  if (targets.every((t) => t === targets[0])) return `first to ${targets[0]}`;
  const names = sideNames(view);
  return targets.map((t, side) => `${names[side]} to ${t}`).join(", ");
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

function possessive(name) {
  return `${name}'s`;
}

// ----------------------------------------------------------------- the log

// One event in words; ``own`` says whether a private event's cards may be shown.
function describe(ev, view, ctx, own) {
  const who = ev.seat === null ? "The table" : view.players[ev.seat] ?? `Seat ${ev.seat + 1}`;
  const scored = (text) => (ev.scored && ev.scores.length ? `${text}   (${scoresText(view, ev.scores)})` : text);
  switch (ev.kind) {
    case "cut":
      return `${who} cuts ${cardsText(ev.cards)}.`;
    case "deal":
      ctx.dealer = ev.seat;
      return { heading: `Deal ${ev.deal + 1} · ${who} deals` };
    case "dealt":
      return null;
    case "discard": {
      const crib = ctx.dealer === ev.seat ? "their own crib" : `${possessive(view.players[ctx.dealer] ?? "the dealer")} crib`;
      const n = view.rules.discards;
      const what = own && ev.cards.length ? cardsText(ev.cards) : `${words(n)} card${n === 1 ? "" : "s"}`;
      return `${who} lays away ${what} to ${crib}.`;
    }
    case "starter":
      return `The starter is ${cardsText(ev.cards)}.`;
    case "heels":
      return scored(`${who} scores ${ev.points} for ${ev.spoken || "his heels (a jack turned up)"}.`);
    case "play": {
      const line = `${who} plays ${cardsText(ev.cards)} — ${ev.count ?? 0}`;
      if (!ev.scored) return line;
      const text = `${line} for ${ev.points}: ${ev.spoken}`;
      return scored(ev.items.length > 1 ? `${text} (${ev.reasons})` : text);
    }
    case "says-go":
      return `${who} says go.`;
    case "go":
      return scored(`${who} gets 1 for ${ev.note === "last card" ? "the last card" : "the go"}.`);
    case "reset":
      return { dim: "The count starts again at 0." };
    case "hand":
    case "crib": {
      const head = `${possessive(who)} ${ev.kind} ${cardsText(ev.cards)}`;
      if (ev.note === "to count") return `${head}: to count.`;
      return scored(`${head}: ${ev.points} — ${ev.spoken}.`);
    }
    case "win": {
      const side = ev.side ?? (ev.seat === null ? 0 : sideOf(view, ev.seat));
      return { heading: `Game over: ${sideNames(view)[side]} wins. ${scoresText(view, ev.scores)}` };
    }
    case "count": {
      const declared = ev.note.replace(/^declared /, "").split(",")[0];
      const corrected = ev.note.includes(", corrected to ");
      if (ev.points === 0 && !corrected) return ev.cards.length === 1 ? null : scored(`${who} counts nothing.`);
      return scored(`${who} counts ${declared}${corrected ? `, corrected to ${ev.points}` : ""}.`);
    }
    case "muggins": {
      const called = ev.note.replace(/^called /, "").split(";")[0];
      if (ev.points) return scored(`Muggins! ${who} takes ${ev.points} missed points (called ${called}): ${ev.reasons}.`);
      return scored(`${who} calls muggins for ${called}, but nothing was missed.`);
    }
    case "penalty":
      return scored(`${who} scores ${ev.points} for the false call.`);
    case "missed":
    {
      const n = Number(ev.note.split(" ")[0]);
      return `Nobody called muggins: ${n} point${n === 1 ? " was" : "s were"} missed (${ev.reasons}).`;
    }
    case "compensation":
      return scored(`${who} scores ${ev.points} for last (not dealing first).`);
    default: {
      const w = ev.kind.replace(/[-_]/g, " ");
      if (ev.scored) return scored(`${who} scores ${ev.points} for ${ev.reasons || w}.`);
      let text = `${who}: ${w}`;
      if (ev.cards.length && (own || !ev.private)) text += ` ${cardsText(ev.cards)}`;
      if (ev.count !== null) text += ` (count ${ev.count})`;
      if (ev.note) text += ` — ${ev.note}`;
      return `${text}.`;
    }
  }
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
    status("This browser would not save the game: it cannot be resumed after a reload.");
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
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Error("cannot reach the server");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw new Error((data && data.error) || `the server answered ${res.status}`);
  return data;
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
  }

  open() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", key: this.key }));
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
      status("This seat was opened elsewhere (another tab or device).", "error");
      return;
    }
    const delay = Math.min(15000, 500 * 2 ** this.tries) * (0.75 + Math.random() / 2);
    this.tries += 1;
    this.table.connection(`Connection lost: reconnecting in ${Math.ceil(delay / 1000)} s…`);
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

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      status("Not connected: wait a moment and try again.");
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
      this.room = msg.room;
      this.view = msg.view;
      this.tries = 0;
      this.pending = false;
      this.lost = false;
      this.stamp = ++this.table.stamp;
      this.table.render();
    } else if (msg.type === "hint") {
      this.hint = { stamp: this.stamp, action: msg.action, reason: msg.reason };
      this.table.render();
    } else if (msg.type === "error") {
      this.pending = false;
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
    this.connection("Connecting…");
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
    const why = code === 4410 ? "This room expired after 7 days without play" : code === 4404 ? "This room no longer exists" : "This device's seat key was refused";
    const problem = `${why}: ${reason || FATAL[code]}`;
    updateGame(this.rec.room, { problem });
    status(`${problem}. The game is still saved on this device: try it again later, or choose Forget to remove it.`, "error");
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
    const unjoined = room.seats.filter((x) => x.kind === "human" && !x.joined).length;
    const away = room.seats.filter((x) => x.kind === "human" && x.joined && !x.connected).map((x) => x.name);
    const missing = [];
    if (unjoined) missing.push(unjoined === 1 ? "a friend to join" : `${words(unjoined)} friends to join`);
    if (away.length) missing.push(`${list(away)} to connect`);
    if (!missing.length && waiting.length) missing.push(`${list(waiting)} to connect`);
    this.missing = waiting.length ? `Waiting for ${missing.join(" and ")}` : "";
    show($("waiting"), waiting.length > 0);
    $("waiting").textContent = this.missing;
    const invite = [...this.conns.values()].map((c) => c.room?.invite).find((x) => x);
    show($("invite"), Boolean(invite));
    if (invite) {
      const link = `${location.origin}/#join=${encodeURIComponent(invite)}`;
      if ($("invite-link").value !== link) $("invite-link").value = link;
    }
    this.renderLinks(room);
    this.renderProposal(room, lview);

    // Scores, board, seats, the middle of the table.
    this.renderScores(view, shown.events);
    const dealer = view.players[view.dealer];
    $("deal-info").textContent = view.phase === "waiting" ? "" : `Deal ${view.deal + 1} · ${dealer} deals · ${goalText(view)}`;
    this.renderSeats(view, room, hidden ? null : you, Boolean(between));
    const noStarter = view.phase === "discard" ? "not turned yet" : "—";
    $("starter").replaceChildren(view.starter ? cardSpan(view.starter) : el("span", { class: "hint" }, noStarter));
    const mineCrib = view.dealer === you && !hidden;
    $("crib").textContent = `${mineCrib ? "yours" : possessive(dealer)} (${view.crib_size} cards)`;
    $("count").textContent = String(view.count);
    $("pile").replaceChildren(
      ...view.pile.map(([s, c]) => cardSpan(c, { "data-pile-card": c, title: `${view.players[s]}: ${cardLabel(c)}` })),
    );

    // The curtain between seats sharing this device.
    show($("curtain"), curtain);
    if (curtain) {
      const b = $("curtain-btn");
      b.replaceChildren(`Pass the device to ${view.players[you]} — tap to show your cards`);
      b.onclick = () => {
        this.revealed = you;
        this.render();
      };
    }

    // The hand and what this seat may do.
    show($("me"), !hidden);
    $("me").setAttribute("aria-busy", String(shown.pending));
    if (!hidden) this.renderMe(shown, view, room);
    else {
      $("hand").replaceChildren();
      $("mine").textContent = "";
    }

    this.renderShow(view, room, shown);
    this.renderOver(view, room);
    this.renderLog(shown, view, multi);
    const canPropose = view.phase !== "over" && !room.new_game;
    if (!canPropose) show($("propose-ask"), false);
    show($("propose"), canPropose && $("propose-ask").hidden);
  }

  renderProposal(room, view) {
    const ng = room.new_game;
    show($("proposal"), Boolean(ng));
    if (!ng) return;
    const mine = [...this.conns.keys()];
    const humans = room.seats.filter((s) => s.kind === "human").map((s) => s.seat);
    const toAgree = humans.filter((s) => mine.includes(s) && !ng.agreed.includes(s));
    const by = view.players[ng.proposed_by] ?? "Someone";
    const others = humans.filter((s) => !ng.agreed.includes(s)).map((s) => view.players[s]);
    $("proposal-text").textContent = toAgree.length
      ? `${by} proposes a new game (this one would be abandoned).`
      : `New game proposed: waiting for ${list(others)} to agree.`;
    show($("agree"), toAgree.length > 0);
    $("agree").onclick = () => this.send({ type: "new_game" }, toAgree);
    $("decline").textContent = toAgree.length ? "Decline" : "Withdraw";
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
      ev.scores.forEach((t, i) => {
        if (t !== pegs[i].front) pegs[i] = { front: t, back: pegs[i].front };
      });
    }
    view.scores.forEach((t, i) => {
      if (pegs[i].front !== t) pegs[i] = { front: t, back: pegs[i].front };
    });
    const b = $("board");
    // Drawn in screen pixels (the view box is as wide as the board), so pegs keep their size.
    const W = Math.max(240, Math.round(b.clientWidth || 360));
    const row = 14;
    // Each side's track runs the board's width to its own target (sides may have targets of their own).
    const track = (target) => (n) => 8 + (Math.max(0, Math.min(n, target)) / target) * (W - 16);
    b.setAttribute("viewBox", `0 0 ${W} ${row * pegs.length + 6}`);
    b.replaceChildren();
    pegs.forEach((p, i) => {
      const y = 10 + i * row;
      const target = targetOf(view, i);
      const x = track(target);
      b.append(svg("line", { x1: x(0), y1: y, x2: x(target), y2: y, class: "track" }));
      let ticks = "";
      for (let n = 5; n < target; n += 5) ticks += `M${x(n).toFixed(1)} ${y - (n % 30 ? 2 : 4)}v${n % 30 ? 4 : 8}`;
      b.append(svg("path", { d: ticks, class: "tick" }));
      b.append(svg("circle", { cx: x(p.back), cy: y, r: 3.2, class: `peg back side${i}` }));
      b.append(svg("circle", { cx: x(p.front), cy: y, r: 4, class: `peg front side${i}` }));
    });
    b.setAttribute("aria-label", `Pegging board, ${goalText(view)}: ${scoresText(view, view.scores)}`);
  }

  // Each seat held here has its own link (to move it to another device before anything is lost); an
  // absent friend's seat can be reopened; the room's expiry deadline is shown.
  renderLinks(room) {
    const links = [...this.conns.values()].map((c) => [c.seat, `${location.origin}/#key=${c.key}`]);
    const linksKey = JSON.stringify(links);
    if ($("seat-link-list").dataset.links !== linksKey) {
      $("seat-link-list").dataset.links = linksKey;
      $("seat-link-list").replaceChildren(
        ...links.map(([seat, link]) =>
          el("input", { readonly: "", value: link, "data-testid": `seat-link-${seat}`, "aria-label": `Seat ${seat + 1}'s link` }),
        ),
      );
    }
    const reopenable = room.mode === "friend"
      ? room.seats.filter((x) => x.kind === "human" && x.joined && !x.connected && !this.conns.has(x.seat))
      : [];
    const reopenKey = JSON.stringify(reopenable.map((x) => [x.seat, x.name]));
    if ($("reopen-row").dataset.seats !== reopenKey) {
      $("reopen-row").dataset.seats = reopenKey;
      $("reopen-row").replaceChildren(
        ...reopenable.map((x) =>
          el("button", { type: "button", class: "quiet", "data-testid": `reopen-seat-${x.seat}`, onclick: () => this.reopen(x.seat) },
            `${x.name} lost their link? Make a new invitation for their seat`),
        ),
      );
    }
    show($("reopen-row"), reopenable.length > 0);
    const expires = room.expires ? new Date(room.expires) : null;
    $("expires").textContent = expires && !Number.isNaN(expires.getTime())
      ? `This room is kept until ${expires.toLocaleString()} if nobody plays; any move keeps it longer.`
      : "";
  }

  renderSeats(view, room, you, between) {
    $("seats").replaceChildren(
      ...view.players.map((name, s) => {
        const info = room.seats.find((x) => x.seat === s);
        const badges = [];
        if (s === view.dealer) badges.push(el("span", { class: "badge" }, "dealer"));
        if (view.to_act.includes(s) && view.phase !== "over" && !between) badges.push(el("span", { class: "badge act" }, "to act"));
        if (info && info.kind !== "human") badges.push(el("span", { class: "badge" }, info.kind));
        if (info && info.kind === "human" && !info.connected) badges.push(el("span", { class: "badge off" }, "offline"));
        const held = s === you ? [] : Array.from({ length: view.held[s] || 0 }, () => el("span", { class: "card small back", "aria-hidden": "true" }));
        return el(
          "div",
          { class: `seat${s === you ? " you" : ""}`, "data-testid": `seat-${s}` },
          el("div", { class: "seat-head" }, el("span", { class: "who", "data-testid": `seat-name-${s}` }, name), s === you ? " (you)" : "", ...badges),
          el("div", { class: "seat-cards" }, ...held, ...(view.laid[s] || []).map((c) => cardSpan(c, { "data-laid-card": c, class: "card small laid" }))),
        );
      }),
    );
  }

  renderMe(conn, view, room) {
    const you = conn.seat;
    const rules = view.rules;
    const myTurn = view.to_act.includes(you) && !room.between_hands && !(room.waiting_for || []).length;
    const legal = new Set(view.legal);
    const discarding = view.phase === "discard" && myTurn && [...legal].some((a) => a.startsWith("discard"));
    const key = `${room.game}/${view.deal}/${you}`;
    if (this.selectedFor !== key) {
      this.selected = new Set();
      this.selectedFor = key;
    }
    for (const c of [...this.selected]) if (!view.hand.includes(c)) this.selected.delete(c);
    const cribOf = view.dealer === you ? "your own crib" : `${possessive(view.players[view.dealer])} crib`;

    let prompt;
    const others = (seats) => list(seats.filter((s) => s !== you).map((s) => view.players[s]));
    if (view.phase === "over") prompt = "The game is over.";
    else if (room.between_hands) prompt = "Read the show, then go on to the next hand.";
    else if ((room.waiting_for || []).length) prompt = `${this.missing}.`;
    else if (view.claim && myTurn) {
      let what = "card";
      for (const ev of conn.events) if (ev.deal === view.deal && (ev.kind === "hand" || ev.kind === "crib")) what = ev.kind;
      if (view.phase === "play") what = "card";
      const whose = view.counting === null || view.counting === you ? "your" : possessive(view.players[view.counting]);
      prompt = view.claim.kind === "count"
        ? `Count ${whose} ${what}: how many points?`
        : `${view.players[view.counting] ?? "The count"} has counted: call muggins (the points missed) or pass.`;
    } else if (discarding) prompt = `Choose ${words(rules.discards)} card${rules.discards === 1 ? "" : "s"} for ${cribOf}.`;
    else if (view.phase === "play" && myTurn) prompt = `Your turn, ${view.players[you]}: play a card (count ${view.count}).`;
    else if (view.to_act.length) {
      const verb = view.phase === "discard" ? "discard" : view.claim_stage ? "count" : "play";
      prompt = `Waiting for ${others(view.to_act)} to ${verb}.`;
    } else prompt = "";
    $("prompt").textContent = prompt;

    const busy = conn.pending;
    $("hand").replaceChildren(
      ...view.hand.map((c) => {
        const sel = this.selected.has(c);
        const canPlay = view.phase === "play" && myTurn && legal.has(`play ${c}`);
        const red = isRed(c);
        const b = el(
          "button",
          {
            type: "button",
            class: `card${red ? " red" : ""}${sel ? " selected" : ""}${canPlay ? " playable" : ""}`,
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
                if (rules.discards !== 1) return void status(`Lay away ${words(rules.discards)} cards: tap a chosen card to put it back.`, "info");
                this.selected.clear();
              }
              this.selected.add(c);
            }
            this.render();
          } else if (canPlay) conn.act(`play ${c}`);
        });
        return b;
      }),
    );

    // Confirm a discard: the chosen cards must be one of the legal discards.
    const chosen = [...this.selected].sort().join(" ");
    const match = [...legal].find((a) => a.startsWith("discard") && a.slice(8).split(" ").filter(Boolean).sort().join(" ") === chosen);
    show($("confirm"), discarding);
    $("confirm").disabled = busy || !match || this.selected.size !== rules.discards;
    $("confirm").textContent = this.selected.size === rules.discards ? `Lay away ${cardsText([...this.selected])}` : `Lay away ${words(rules.discards)}`;
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
      $("claim-go").textContent = claim.kind === "count" ? "Count" : "Muggins!";
      $("claim-go").disabled = busy;
      show($("claim-pass"), legal.has("pass"));
      $("claim-pass").disabled = busy;
      $("claim-pass").onclick = () => conn.act("pass");
      $("claim").onsubmit = (e) => {
        e.preventDefault();
        const v = Number(n.value);
        if (n.value === "" || !Number.isInteger(v) || v < claim.min || v > claim.max) {
          status(`Enter a number from ${claim.min} to ${claim.max}.`);
          return;
        }
        n.value = "";
        conn.act(`${claim.kind === "count" ? "count" : "muggins"} ${v}`);
      };
    }
    $("mine").textContent = view.discarded.length ? `You laid away ${cardsText(view.discarded)} to ${cribOf}.` : "";

    // Hints (the hard level's choice) where no other person plays; a hint lasts until the state changes.
    show($("hint"), myTurn && room.mode !== "friend");
    $("hint").onclick = () => conn.send({ type: "hint" });
    const hint = conn.hint && conn.hint.stamp === conn.stamp ? conn.hint : null;
    show($("hint-text"), Boolean(hint));
    $("hint-text").textContent = hint ? `Hint: ${actionWords(hint.action)} — ${hint.reason}.` : "";
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
          `${possessive(who)} ${ev.kind} `,
          ...ev.cards.map((c) => cardSpan(c)),
          starter ? " + starter " : "",
          starter ? cardSpan(starter) : "",
        );
        const items = el("ul", { class: "items" });
        if (ev.note !== "to count") {
          for (const it of ev.items) items.append(el("li", {}, `${it.name} ${it.points}: `, ...it.cards.map((c) => cardSpan(c))));
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
    $("show-title").textContent = `The show · deal ${deal + 1}`;
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
    $("next-wait").textContent = bh && !notReady.length && others.length ? `Waiting for ${list(others)} to go on.` : "";
  }

  renderOver(view, room) {
    const over = view.phase === "over";
    show($("over"), over);
    if (!over) return;
    const names = sideNames(view);
    const w = view.winner ?? 0;
    const two = view.scores.length === 2 ? `, ${view.scores[w]} to ${view.scores[1 - w]}` : "";
    $("winner").textContent = `${names[w]} ${names[w].includes(" & ") ? "win" : "wins"}${two}.`;
    const hist = room.history || [];
    $("history").textContent = hist.length
      ? `Games won here: ${names.map((n, i) => `${n} ${hist.filter((h) => h.winner === i).length + (i === w ? 1 : 0)}`).join(" · ")}`
      : "";
    $("new-game").onclick = () => this.send({ type: "new_game" }, [...this.conns.keys()].slice(0, 1));
  }

  renderLog(conn, view, multi) {
    const key = `${conn.seat}/${conn.log}/${view.players.join("\n")}`;
    const log = $("log");
    if (this.logKey !== key || conn.events.length < this.logCount) {
      log.replaceChildren();
      this.logCount = 0;
      this.logKey = key;
      this.logCtx = { dealer: view.dealer };
    }
    const box = log.parentElement;
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

// ----------------------------------------------------------------- screens

let table = null;
let profiles = null;

function screen(name) {
  for (const s of ["start", "join", "table"]) show($(s), s === name);
}

function leaveTable() {
  if (table) table.stop();
  table = null;
  $("conn").textContent = "";
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
  const id = h.get("room");
  if (id) {
    const rec = getGame(id);
    if (rec) {
      if (table && table.rec.room === id) return;
      leaveTable();
      screen("table");
      $("log").replaceChildren();
      table = new Table(rec);
      table.start();
      return;
    }
    status("That game is not saved on this device.");
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
      const mode = g.mode === "computer" ? "against the computer" : g.mode === "same-device" ? "on this device" : "with a friend";
      const score = g.scores ? ` · ${g.scores.join("–")}${g.over ? " (over)" : ""}` : "";
      const problem = typeof g.problem === "string" ? el("span", { class: "hint error", "data-testid": "saved-problem" }, ` ${g.problem}`) : "";
      return el(
        "li",
        { "data-room": g.room, "data-testid": "saved-game" },
        el("span", { class: "saved-name" }, names.length ? names.join(" vs ") : "New game", el("span", { class: "hint" }, ` ${mode}${score}`), problem),
        el("span", { class: "row" },
          el("button", { type: "button", "data-testid": "resume-game", onclick: () => go(`#room=${encodeURIComponent(g.room)}`) }, "Resume"),
          el("button", { type: "button", class: "quiet", "data-testid": "forget-game", onclick: () => (dropGame(g.room), renderSaved()) }, "Forget"),
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
      el("label", { class: "field" }, `Player ${i + 2}'s name`,
        el("input", { maxlength: 24, "data-testid": `other-name-${i + 1}`, placeholder: `Player ${i + 2}`, value: old[i] || "" })),
    ),
  );
}

async function loadProfiles() {
  if (profiles) return;
  try {
    profiles = await api("/api/profiles");
  } catch (e) {
    status(`Cannot load the rules: ${e.message}`);
    return;
  }
  const sel = $("profile");
  sel.replaceChildren(...profiles.profiles.map((p) => el("option", { value: p.name }, `${p.name} (${p.seats} players)`)));
  const describeProfile = () => {
    $("profile-desc").textContent = profiles.profiles.find((p) => p.name === sel.value)?.description || "";
    renderOtherNames();
  };
  sel.onchange = describeProfile;
  describeProfile();
  $("levels").replaceChildren(
    ...profiles.levels.map((lv) =>
      el("button", { type: "button", "data-testid": `start-computer-${lv}`, class: lv === profiles.default_level ? "" : "quiet", onclick: () => create("computer", lv) },
        lv[0].toUpperCase() + lv.slice(1)),
    ),
  );
}

function renderStart() {
  const name = $("name");
  if (!name.value) name.value = localStorage.getItem(NAME) || "";
  renderSaved();
  loadProfiles();
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
  const first = myName($("name"), "Player 1");
  const names = [first];
  if (mode === "same-device") {
    [...$("other-names").querySelectorAll("input")].forEach((i, k) => names.push(i.value.trim() || `Player ${k + 2}`));
  }
  const body = { mode, profile: $("profile").value || "standard", names };
  if (level) body.level = level;
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
  busy = true;
  status("");
  try {
    const r = await api("/api/rooms", body);
    putGame({ room: r.room, mode: r.mode, profile: r.profile, keys: r.keys, invite: r.invite, names, created: Date.now() });
    go(`#room=${encodeURIComponent(r.room)}`);
  } catch (e) {
    status(`Could not start the game: ${e.message}`);
  } finally {
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
    if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
    putGame({ room, mode: data.room.mode, profile: data.room.profile.name, keys: [{ seat: data.room.you, key }], created: Date.now() });
    go(`#room=${encodeURIComponent(room)}`);
  } catch (e) {
    go("");
    status(`Could not open that seat: ${e.message}`);
  }
}

async function join(code) {
  if (busy) return;
  const name = $("join-name").value.trim();
  if (!name) {
    status("Type your name first.");
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
    status(`Could not join: ${e.message}`);
  } finally {
    busy = false;
  }
}

// ----------------------------------------------------------------- wiring

$("start-same").onclick = () => create("same-device");
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
  status("Every saved game was forgotten on this device.", "info");
};
$("copy").onclick = async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
  $("copy").textContent = "Copied";
  setTimeout(() => ($("copy").textContent = "Copy link"), 2000);
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
    humans > table.conns.size ? "Propose a new game to the others?" : "Abandon this game and start a new one?";
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
route();
