// The viewer's script (vvw/web/viewer.html): a replay's events or a live game, drawn.
"use strict";
const KINDS = {1: "humans", 2: "vampires", 3: "werewolves"};
const PALETTE = getComputedStyle(document.documentElement);  // vvw/web/palette.py's
const colour = (name) => PALETTE.getPropertyValue("--" + name).trim();
const COLOURS = {1: colour("humans"), 2: colour("vampires"), 3: colour("werewolves")};
const INITIAL = {vampires: "V", werewolves: "W"};
const config = JSON.parse(document.getElementById("vvw-config").textContent);
const $ = (id) => document.getElementById(id);

// --- The game: one model that the board, the move list, the chart and the panels read. ---
// game.frames[i] is the position after i turns (frames[0] the start): the turn's side,
// moves, battles and think time, the cells after it (a Map from y * cols + x to
// [kind, count]), the totals, and its marks (the end of the game, a rule broken; later
// tools add their own), each {symbol, text, end}.

let game = null;
let current = 0;
let timer = null;
let follow = true;
let hovered = null;  // [x, y] of the cell under the pointer, if any

function totals(cells) {
  const t = {1: 0, 2: 0, 3: 0};
  for (const [kind, count] of cells.values()) t[kind] += count;
  return t;
}

function turnFrame(before, fields) {
  return Object.assign({ply: game.frames.length, side: null, moves: [], battles: [],
                        think: null, cells: before.cells, totals: before.totals, marks: []},
                       fields);
}

function apply(event) {
  if (event.type === "start") {
    game = {map: event.map, rows: event.rows, cols: event.cols, names: event.names || {},
            frames: [], result: null};
    const cells = new Map(event.board.map(([x, y, kind, n]) => [y * event.cols + x, [kind, n]]));
    game.frames.push({ply: 0, side: null, moves: [], battles: [], think: null, cells,
                      totals: totals(cells), marks: []});
    current = 0;
  } else if (!game) {
    return;
  } else if (event.type === "names") {
    game.names = event.names;
  } else if (event.type === "ply") {
    const before = game.frames[game.frames.length - 1];
    const cells = new Map(before.cells);
    for (const [x, y, kind, n] of event.changes) {
      if (kind) cells.set(y * game.cols + x, [kind, n]); else cells.delete(y * game.cols + x);
    }
    const frame = turnFrame(before, {side: event.side, moves: event.moves,
                                     battles: event.battles, think: event.think, cells,
                                     totals: totals(cells), number: event.ply});
    if (event.violation) frame.marks.push({symbol: "✗", text: "breaks " + event.violation});
    game.frames.push(frame);
  } else if (event.type === "skip") {
    const before = game.frames[game.frames.length - 1];
    game.frames.push(turnFrame(before, {side: event.side, skipped: true}));
  } else if (event.type === "result") {
    game.result = event;
    const before = game.frames[game.frames.length - 1];
    if (event.refused) {
      game.frames.push(turnFrame(before, {side: event.refused.side, moves: event.refused.moves,
                                          refused: event.refused}));
    }
    const last = game.frames[game.frames.length - 1];
    last.marks.push(Object.assign({symbol: event.refused ? "✗" : "■", end: true},
                                  endText(event, last)));
  }
}

function who(side) {
  return side ? `${side} (${game.names[side] || "?"})` : "";
}

// How the game ended, said on its last frame: {text} in short, {detail} the reason in full
// (the rule broken, the bytes received).
function endText(result, last) {
  let head;
  if (result.termination === "end") head = result.text;
  else if (result.termination === "aborted") head = "game aborted";
  else if (result.winner) head = `${who(result.winner)} win by ${result.termination}`;
  else head = `draw by ${result.termination}`;
  const details = [];
  if (result.detail && result.detail !== result.termination) details.push(result.detail);
  if (["ply limit", "game time limit"].includes(result.termination)) {
    details.push(`${last.totals[2]} vampires against ${last.totals[3]} werewolves`);
  }
  if (result.refused) {
    details.push("received " + result.refused.received.map((frame) =>
      frame.text + (frame.text.startsWith("MOV") ? "" :
        ` [${frame.hex}${frame.bytes > frame.hex.split(" ").length ? " …" : ""}]`)).join(", "));
  }
  return {text: "game over: " + head, detail: details.join("; ")};
}

function markText(mark) { return `${mark.symbol} ${mark.text}${mark.detail ? ": " + mark.detail : ""}`; }

function text(id, value) { $(id).textContent = String(value); }

function drawHeader() {
  text("name-vampires", game.names.vampires || "vampires");
  text("name-werewolves", game.names.werewolves || "werewolves");
  text("map-name", game.map ? `${game.map} (${game.cols} × ${game.rows})`
                            : `${game.cols} × ${game.rows}`);
  $("map-on").hidden = false;  // no "on ?" before the game's map is known
  text("result", game.result ? game.result.text + (game.result.detail &&
       game.result.detail !== game.result.termination ? ": " + game.result.detail : "")
       : "game in progress");
  $("result").title = $("result").textContent;
  $("result").className = game.result && game.result.winner ? game.result.winner : "muted";
}

// --- The board: the whole of it fitted to the room it has, zoomed and panned at will. ----

const MAX_FIT = 96;        // px per cell at most when the board is fitted
const MAX_ZOOM = 48;       // px per cell the zoom goes up to (more if the fit is larger)
const COUNTS_FROM = 14;    // px per cell from which counts and badges are drawn
const MIN_FONT = 8;        // px: a count that would be smaller is not drawn
const view = {s: 1, fitS: 1, ox: 0, oy: 0, width: 300, height: 300,
              area: {x: 0, y: 0, w: 300, h: 300}, chart: {w: 300, h: 150}, wins: {w: 300, h: 110}};
const digitWidth = (() => {   // a digit's width over the font size, for the counts' font
  const g = document.createElement("canvas").getContext("2d");
  g.font = `600 100px ${getComputedStyle(document.body).getPropertyValue("--font")}`;
  return Math.max(0.5, g.measureText("0123456789").width / 1000) * 1.06;
})();

function niceStep(least) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]) if (step >= least) return step;
  return 1000;
}

// The stage takes the room beside the side panel and under the controls; the board is
// fitted into it, with the column numbers above and the row numbers to the left.
function layout() {
  const main = document.querySelector("main");
  const style = getComputedStyle(main);
  const inner = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const beside = inner - 380 - 14;  // room for the side panel at its ease
  const roomWidth = beside >= 360 ? beside : inner;
  const boxWidth = Math.min(680, roomWidth);  // the controls on one line, before measuring
  $("board-box").style.width = boxWidth + "px";
  const stageTop = $("stage").getBoundingClientRect().top + window.scrollY;
  const below = config.analysis ? 190 : 0;  // the winning chances under the board
  const roomHeight = Math.max(240, window.innerHeight - stageTop - 36 - below);  // the line below, the foot
  const left = 10 + 7 * String(game.rows - 1).length, top = 16;
  let s = Math.min((roomWidth - left - 2) / game.cols, (roomHeight - top - 2) / game.rows, MAX_FIT);
  if (s >= 4) s = Math.floor(s);
  s = Math.max(s, 0.5);
  view.fitS = s;
  view.area = {x: left, y: top, w: Math.ceil(game.cols * s), h: Math.ceil(game.rows * s)};
  view.width = left + view.area.w + 2;
  view.height = top + view.area.h + 2;
  fitView();
  const stage = $("stage");
  stage.style.width = view.width + "px";
  stage.style.height = view.height + "px";
  $("board-box").style.width = Math.max(view.width, boxWidth) + "px";
  const canvas = $("board"), ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(view.width * ratio);
  canvas.height = Math.round(view.height * ratio);
  canvas.style.width = view.width + "px";
  canvas.style.height = view.height + "px";
  const overlay = $("overlay");
  overlay.setAttribute("width", view.width);
  overlay.setAttribute("height", view.height);
  for (const id of ["area", "board-frame"]) {  // the board's room, and its frame
    for (const [name, value] of [["x", view.area.x], ["y", view.area.y],
                                 ["width", view.area.w], ["height", view.area.h]]) {
      $(id).setAttribute(name, value);
    }
  }
  view.chart = {w: $("chart").clientWidth || 300, h: $("chart").clientHeight || 150};
  view.wins = {w: $("wins").clientWidth || 300, h: $("wins").clientHeight || 110};
  fitMoveList();
}

// The move list reaches down to the window's foot, and no further.
function fitMoveList() {
  const list = $("list-scroll");
  const foot = parseFloat(getComputedStyle(document.querySelector("main")).paddingBottom);
  const top = list.getBoundingClientRect().top + window.scrollY;
  const below = document.querySelector("aside").getBoundingClientRect().bottom
    - list.getBoundingClientRect().bottom + foot;
  list.style.maxHeight = Math.max(160, window.innerHeight - top - below - 1) + "px";
}

function fitView() { view.s = view.fitS; view.ox = 0; view.oy = 0; }

function clampView() {
  const w = game.cols * view.s, h = game.rows * view.s;
  view.ox = w <= view.area.w ? 0 : Math.min(0, Math.max(view.area.w - w, view.ox));
  view.oy = h <= view.area.h ? 0 : Math.min(0, Math.max(view.area.h - h, view.oy));
}

function zoomAt(px, py, factor) {
  const s = Math.min(Math.max(view.fitS, MAX_ZOOM), Math.max(view.fitS, view.s * factor));
  view.ox = px - (px - view.ox) * s / view.s;
  view.oy = py - (py - view.oy) * s / view.s;
  view.s = s;
  clampView();
  scheduleBoard();
}

function visibleCells() {
  const {s, ox, oy, area} = view;
  return {x0: Math.max(0, Math.floor(-ox / s)), x1: Math.min(game.cols, Math.ceil((area.w - ox) / s)),
          y0: Math.max(0, Math.floor(-oy / s)), y1: Math.min(game.rows, Math.ceil((area.h - oy) / s))};
}

function drawCanvas(frame) {
  const canvas = $("board"), g = canvas.getContext("2d"), ratio = canvas.width / view.width;
  const {s, ox, oy, area} = view, {cols} = game;
  const seen = visibleCells();
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, view.width, view.height);
  g.save();
  g.beginPath();
  g.rect(area.x, area.y, area.w, area.h);
  g.clip();
  g.translate(area.x + ox, area.y + oy);
  g.fillStyle = colour("panel");
  g.fillRect(0, 0, game.cols * s, game.rows * s);
  if (s >= 6) {
    g.strokeStyle = colour("cell-line");
    g.lineWidth = 1;
    g.beginPath();
    for (let x = seen.x0; x <= seen.x1; x++) { g.moveTo(x * s + 0.5, seen.y0 * s); g.lineTo(x * s + 0.5, seen.y1 * s); }
    for (let y = seen.y0; y <= seen.y1; y++) { g.moveTo(seen.x0 * s, y * s + 0.5); g.lineTo(seen.x1 * s, y * s + 0.5); }
    g.stroke();
  }
  const pad = s >= 6 ? 1 : 0;
  for (const [key, [kind]] of frame.cells) {
    const x = key % cols, y = (key - x) / cols;
    if (x < seen.x0 || x >= seen.x1 || y < seen.y0 || y >= seen.y1) continue;
    g.fillStyle = COLOURS[kind];
    g.fillRect(x * s + pad, y * s + pad, s - 2 * pad, s - 2 * pad);
  }
  g.strokeStyle = colour("highlight");
  g.lineWidth = Math.max(1.5, s / 8);
  for (const battle of frame.battles) {
    const [x, y] = battle.cell;
    g.strokeRect(x * s + 1, y * s + 1, s - 2, s - 2);
  }
  g.restore();
  drawAxes(g, seen);
}

// Column numbers above the board and row numbers to its left, as many as fit.
function drawAxes(g, seen) {
  const {s, ox, oy, area} = view;
  g.fillStyle = colour("muted");
  g.font = `10px ${getComputedStyle(document.body).getPropertyValue("--font")}`;
  g.textBaseline = "middle";
  g.textAlign = "center";
  const across = niceStep((7 * String(game.cols - 1).length + 6) / s);
  for (let x = Math.ceil(seen.x0 / across) * across; x < seen.x1; x += across) {
    const at = area.x + ox + (x + 0.5) * s;
    if (at >= area.x && at <= area.x + area.w) g.fillText(String(x), at, area.y / 2);
  }
  g.textAlign = "right";
  const down = niceStep(13 / s);
  for (let y = Math.ceil(seen.y0 / down) * down; y < seen.y1; y += down) {
    const at = area.y + oy + (y + 0.5) * s;
    if (at >= area.y && at <= area.y + area.h) g.fillText(String(y), area.x - 4, at);
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

const SQUEEZE = 0.78;      // a count's digits may be drawn this much narrower to fit

// A count's font size in its cell and its width: as large as reads well, narrow enough to
// stay inside (its digits squeezed a little if need be).
function countFont(count) {
  const room = view.s - 4, digits = digitWidth * String(count).length;
  const font = Math.min(view.s * 0.6, 22, room / (digits * SQUEEZE));
  return {font, width: Math.min(digits * font, room), squeezed: digits * font > room};
}

function overlaps(a, b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

// The overlay: arrows for the moves, the counts in their cells (those in full view), and
// each move's count on a badge put where it covers no count (nor a group whose count is
// too small to draw) and no other badge; none if there is no such place.
function drawOverlay(frame) {
  const {s, ox, oy} = view, {cols} = game, seen = visibleCells();
  const boxes = new Map();
  const counts = [];
  let unread = 0;
  for (const [key, [kind, count]] of frame.cells) {
    const x = key % cols, y = (key - x) / cols;
    if (x < seen.x0 || x >= seen.x1 || y < seen.y0 || y >= seen.y1) continue;
    const {font, width, squeezed} = s >= COUNTS_FROM ? countFont(count) : {font: 0};
    const cx = ox + (x + 0.5) * s, cy = oy + (y + 0.5) * s;
    if (font < MIN_FONT) {  // no count to read here: its group is kept clear of badges
      unread++;
      boxes.set(key, {x0: cx - s / 2, x1: cx + s / 2, y0: cy - s / 2, y1: cy + s / 2});
      continue;
    }
    const half = width / 2 + 1, high = font * 0.68 + 1;
    const box = {x0: cx - half, x1: cx + half, y0: cy - high, y1: cy + high};
    if (box.x0 < 0 || box.y0 < 0 || box.x1 > view.area.w || box.y1 > view.area.h) continue;
    const label = svg("text", {x: cx, y: cy, "font-size": font.toFixed(1), stroke: COLOURS[kind],
                               "data-x": x, "data-y": y});
    if (squeezed) {
      label.setAttribute("textLength", width.toFixed(1));
      label.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    label.textContent = String(count);
    counts.push(label);
    boxes.set(key, box);
  }
  const shafts = frame.moves.map((move) => shaft(move));
  const badges = [], placed = [];
  if (s >= COUNTS_FROM) {
    shafts.forEach((line, i) => {
      const [x, y, count, tx, ty] = frame.moves[i];
      const box = placeBadge(line, String(count), boxes, placed, shafts);
      if (!box) return;
      placed.push(box);
      const badge = svg("g", {"data-from": `${x},${y}`, "data-to": `${tx},${ty}`});
      badge.appendChild(svg("rect", {x: box.x0, y: box.y0, width: box.x1 - box.x0,
                                     height: box.y1 - box.y0, rx: 3}));
      const label = svg("text", {x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2});
      label.textContent = String(count);
      badge.appendChild(label);
      badges.push(badge);
    });
  }
  const better = betterPly(frame).map((move) => arrow(move, shaft(move), "better"));
  $("arrows").replaceChildren(...frame.moves.map((move, i) =>
    arrow(move, shafts[i], frame.refused ? "refused" : "")), ...better);
  $("extra").replaceChildren(...hooks.overlay.flatMap((hook) => hook(frame)));
  $("counts").replaceChildren(...counts);
  $("badges").replaceChildren(...badges);
  text("hint", unread ? "zoom in (wheel, +) to read the counts; hover a cell for its own" : "");
}

// A move's arrow in the overlay: from near its source's centre to its head near its
// target's, {x1, y1, x2, y2} (the head's tip), the rest under the counts.
// reach: the head's tip on the target's centre (an arrow drawn over the counts).
function shaft([x, y, , tx, ty], reach = false) {
  const {s, ox, oy} = view;
  const ax = ox + (x + 0.5) * s, ay = oy + (y + 0.5) * s;
  const bx = ox + (tx + 0.5) * s, by = oy + (ty + 0.5) * s;
  const length = Math.hypot(bx - ax, by - ay) || 1;
  const ux = (bx - ax) / length, uy = (by - ay) / length;
  const from = s >= COUNTS_FROM ? 0.15 * s : 0, to = s >= COUNTS_FROM && !reach ? 0.3 * s : 0;
  return {x1: ax + ux * from, y1: ay + uy * from, x2: bx - ux * to, y2: by - uy * to, ux, uy};
}

// kind: "" (a move played), "refused" (the ply that lost the game), "better" (the
// analysis's better ply) or a part's own ("pending": the person's moves not yet sent).
const ARROW_TITLES = {refused: " (refused)", better: " (the better ply)", pending: " (to send)"};

function arrow([x, y, count, tx, ty], {x1, y1, x2, y2, ux, uy}, kind) {
  const s = view.s, angle = Math.atan2(uy, ux);
  const head = Math.min(11, Math.max(3, s * 0.28));
  const group = svg("g", {"class": kind ? `arrow ${kind}` : "arrow", "data-from": `${x},${y}`,
                          "data-to": `${tx},${ty}`, "data-count": count});
  const title = svg("title", {});
  title.textContent = `${count} from (${x},${y}) to (${tx},${ty})${ARROW_TITLES[kind] || ""}`;
  group.appendChild(title);
  const line = {x1, y1, x2: x2 - ux * head * 0.6, y2: y2 - uy * head * 0.6,
                "stroke-width": Math.min(4, Math.max(1.2, s / 14))};
  if (kind) line["stroke-dasharray"] = "4 3";
  group.appendChild(svg("line", line));
  const points = [[x2, y2],
    [x2 - head * Math.cos(angle - 0.45), y2 - head * Math.sin(angle - 0.45)],
    [x2 - head * Math.cos(angle + 0.45), y2 - head * Math.sin(angle + 0.45)]];
  group.appendChild(svg("polygon", {points: points.map((p) => p.join(",")).join(" ")}));
  return group;
}

// Where a move's badge goes: beside its arrow's middle, the first spot that covers no
// count and no badge and, if there is one, no arrow; in cells: [along, aside] the arrow.
const BADGE_SPOTS = [[0, 0.45], [0, -0.45], [0.3, 0.5], [-0.3, 0.5], [0.3, -0.5], [-0.3, -0.5],
                     [0, 0.85], [0, -0.85], [0.55, 0], [-0.55, 0], [0, 0]];

function crosses(box, {x1, y1, x2, y2}) {
  const steps = Math.max(2, Math.ceil(Math.hypot(x2 - x1, y2 - y1) / 4));
  for (let i = 0; i <= steps; i++) {
    const x = x1 + (x2 - x1) * i / steps, y = y1 + (y2 - y1) * i / steps;
    if (x > box.x0 - 2 && x < box.x1 + 2 && y > box.y0 - 2 && y < box.y1 + 2) return true;
  }
  return false;
}

function coversCount(box, boxes) {
  const {s, ox, oy} = view;
  for (let x = Math.floor((box.x0 - ox) / s); x <= Math.floor((box.x1 - ox) / s); x++) {
    for (let y = Math.floor((box.y0 - oy) / s); y <= Math.floor((box.y1 - oy) / s); y++) {
      const count = x >= 0 && x < game.cols ? boxes.get(y * game.cols + x) : undefined;
      if (count && overlaps(count, box)) return true;
    }
  }
  return false;
}

function placeBadge(line, label, boxes, placed, shafts) {
  const {s, area} = view;
  const w = 7 + 6.6 * label.length, h = 14;
  const mx = (line.x1 + line.x2) / 2, my = (line.y1 + line.y2) / 2;
  const free = [];
  for (const [along, aside] of BADGE_SPOTS) {
    const cx = mx + (line.ux * along - line.uy * aside) * s;
    const cy = my + (line.uy * along + line.ux * aside) * s;
    const box = {x0: cx - w / 2, x1: cx + w / 2, y0: cy - h / 2, y1: cy + h / 2};
    if (box.x0 < 0 || box.y0 < 0 || box.x1 > area.w || box.y1 > area.h) continue;
    if (placed.some((other) => overlaps(other, box)) || coversCount(box, boxes)) continue;
    if (!shafts.some((other) => crosses(box, other))) return box;
    free.push(box);
  }
  return free.length ? free[0] : null;
}

let boardPending = false;

function scheduleBoard() {
  if (boardPending) return;
  boardPending = true;
  requestAnimationFrame(() => { boardPending = false; if (game) drawBoard(); });
}

function drawBoard() {
  const frame = game.frames[current];
  drawCanvas(frame);
  drawOverlay(frame);
}

// --- The panels, the move list and the chart. -------------------------------------------

function listItems(id, items) {
  $(id).replaceChildren(...items.map((words) => {
    const item = document.createElement("li");
    item.textContent = words;
    return item;
  }));
}

function moveText([x, y, n, tx, ty]) { return `${n} (${x},${y})→(${tx},${ty})`; }

function thinkText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds >= 1) return `${seconds.toFixed(2)} s`;
  return seconds < 0.0005 ? "<1 ms" : `${Math.round(seconds * 1000)} ms`;
}

function battleText(b) {
  const odds = `${Math.round(Number(b.p) * 100)}%`;
  if (!b.winner) return `⚔ ${odds} ?`;
  return `⚔ ${odds} ${b.winner === b.attacker ? "won" : "lost"}`;
}

function frameSummary(frame) {
  if (frame.ply === 0) return "start";
  if (frame.skipped) return "turn skipped";
  const shown = frame.moves.slice(0, 3).map(moveText).join(", ");
  const more = frame.moves.length > 3 ? ` +${frame.moves.length - 3}` : "";
  if (!frame.refused) return (shown || "no move") + more;
  return "refused: " + (shown ? shown + more : frame.refused.received.map((f) => f.text).join(", "));
}

function cell(content, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (content instanceof Node) td.appendChild(content); else td.textContent = content;
  return td;
}

function moveRow(frame) {
  const row = document.createElement("tr");
  row.dataset.ply = frame.ply;
  const number = document.createElement("span");
  number.textContent = String(frame.ply);
  const marks = frame.marks.filter((mark) => !mark.end);
  if (marks.length) {
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = marks.map((m) => m.symbol).join("");
    mark.title = marks.map(markText).join("\n");
    number.appendChild(mark);
  }
  const side = document.createElement("span");
  side.textContent = INITIAL[frame.side] || "";
  side.className = frame.side || "";
  side.title = who(frame.side);
  row.append(cell(number), cell(side), cell(frameSummary(frame)), cell(thinkText(frame.think), "think"),
             cell(frame.battles.map(battleText).join(", "), "battles"));
  return row;
}

function endRow(frame, mark) {
  const row = document.createElement("tr");
  row.className = "end";
  row.dataset.ply = frame.ply;
  const td = cell(markText(mark));
  td.colSpan = 5;
  row.appendChild(td);
  return row;
}

let listed = 0;   // frames in the move list; a result redraws the list whole

function drawMoveList(whole) {
  const body = $("move-list").tBodies[0];
  if (whole) { body.replaceChildren(); listed = 0; }
  for (; listed < game.frames.length; listed++) {
    const frame = game.frames[listed];
    body.appendChild(moveRow(frame));
    for (const mark of frame.marks) if (mark.end) body.appendChild(endRow(frame, mark));
  }
}

function markCurrentRow() {
  const body = $("move-list").tBodies[0];
  for (const row of body.querySelectorAll("tr.current")) row.classList.remove("current");
  const rows = body.querySelectorAll(`tr[data-ply="${current}"]`);
  for (const row of rows) row.classList.add("current");
  if (!rows.length) return;
  const box = $("list-scroll"), first = rows[0], last = rows[rows.length - 1];
  const bottom = last.offsetTop + last.offsetHeight;
  if (first.offsetTop - 20 < box.scrollTop) box.scrollTop = first.offsetTop - 20;
  else if (bottom > box.scrollTop + box.clientHeight) box.scrollTop = bottom - box.clientHeight;
}

function drawPanels(frame) {
  text("count-humans", frame.totals[1]);
  text("count-vampires", frame.totals[2]);
  text("count-werewolves", frame.totals[3]);
  const end = frame.marks.find((mark) => mark.end);
  let line = frame.ply === 0 ? "the start" : frame.skipped ? `${who(frame.side)}: turn skipped`
    : frame.refused ? `${who(frame.side)}: refused` : `${who(frame.side)} moved`;
  if (frame.think !== null) line += ` (thought ${thinkText(frame.think)})`;
  text("ply-side", end ? `${line} · ${end.text}` : line);
  const notes = frame.marks.map((mark) => {
    const item = document.createElement("li");
    item.textContent = markText(mark);
    if (mark.end) item.className = "end";
    return item;
  });
  if (frame.analysis && frame.analysis.expected !== null) {
    const item = document.createElement("li");
    item.className = "ledger";
    item.textContent = ledgerText(frame.analysis);
    notes.push(item);
  }
  $("notes").replaceChildren(...notes);
  listItems("moves", frame.moves.map(moveText));
  listItems("battles", frame.battles.map((b) =>
    `battle at (${b.cell[0]},${b.cell[1]}): ${b.attackers} ${b.attacker} attack ${b.defenders} ` +
    `${b.defender}, P(attackers win) = ${Number(b.p).toFixed(3)} → ` +
    (b.winner ? `${b.winner} win, ${b.survivors} left` : "outcome not seen") + luckText(frame, b)));
  text("cell-count", frame.cells.size);
  if ($("cells-box").open) drawCells(frame);
}

function drawCells(frame) {
  const cols = game.cols;
  const keys = [...frame.cells.keys()].sort((a, b) => a - b);
  $("cells").tBodies[0].replaceChildren(...keys.map((key) => {
    const [kind, count] = frame.cells.get(key);
    const x = key % cols, y = (key - x) / cols;
    const row = document.createElement("tr");
    row.dataset.x = x; row.dataset.y = y; row.dataset.kind = KINDS[kind];
    for (const value of [x, y, KINDS[kind], count]) row.appendChild(cell(String(value)));
    row.className = KINDS[kind];
    return row;
  }));
}

const CHART = {left: 36, right: 8, top: 6, bottom: 18};

// The three counts over the game, with their axes; the dashed line is the ply shown.
function drawChart() {
  const chart = $("chart");
  const {w: width, h: height} = view.chart;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const frames = game.frames, last = Math.max(1, frames.length - 1);
  let most = 1;
  for (const f of frames) most = Math.max(most, f.totals[1], f.totals[2], f.totals[3]);
  const yStep = niceStep(most / 4), top = Math.ceil(most / yStep) * yStep;
  const plotW = width - CHART.left - CHART.right, plotH = height - CHART.top - CHART.bottom;
  const px = (i) => CHART.left + i / last * plotW, py = (v) => CHART.top + plotH - v / top * plotH;
  const parts = [];
  for (let v = 0; v <= top; v += yStep) {
    parts.push(svg("line", {x1: CHART.left, x2: width - CHART.right, y1: py(v), y2: py(v),
                            "class": v ? "grid" : "axis"}));
    const label = svg("text", {x: CHART.left - 4, y: py(v) + 3, "text-anchor": "end"});
    label.textContent = String(v);
    parts.push(label);
  }
  const xStep = niceStep(last / Math.max(2, Math.floor(plotW / 45)));
  const ticks = [];
  for (let i = 0; i <= last - 0.6 * xStep; i += xStep) ticks.push(i);
  ticks.push(last);  // the last ply, always
  for (const i of ticks) {
    parts.push(svg("line", {x1: px(i), x2: px(i), y1: CHART.top + plotH, y2: CHART.top + plotH + 3,
                            "class": "axis"}));
    const label = svg("text", {x: px(i), y: height - 4, "text-anchor": "middle"});
    label.textContent = String(i);
    parts.push(label);
  }
  parts.push(svg("line", {x1: CHART.left, x2: CHART.left, y1: CHART.top, y2: CHART.top + plotH,
                          "class": "axis"}));
  const every = Math.max(1, Math.ceil(frames.length / plotW));
  for (const kind of [1, 2, 3]) {
    const points = [];
    for (let i = 0; i < frames.length; i += every) points.push(`${px(i).toFixed(1)},${py(frames[i].totals[kind]).toFixed(1)}`);
    points.push(`${px(frames.length - 1).toFixed(1)},${py(frames[frames.length - 1].totals[kind]).toFixed(1)}`);
    parts.push(svg("polyline", {fill: "none", stroke: COLOURS[kind], "stroke-width": 1.8,
                                points: points.join(" ")}));
  }
  parts.push(svg("line", {id: "chart-marker", y1: CHART.top, y2: CHART.top + plotH,
                          stroke: colour("guide"), "stroke-dasharray": "3 3"}));
  chart.replaceChildren(...parts);
  chart.dataset.last = last;
  moveChartMarker();
}

function moveChartMarker() {
  const chart = $("chart"), marker = $("chart-marker");
  if (!marker) return;
  const at = CHART.left + current / Number(chart.dataset.last) *
    (view.chart.w - CHART.left - CHART.right);
  marker.setAttribute("x1", at);
  marker.setAttribute("x2", at);
}

function show(index) {
  if (!game || game.frames.length === 0) return;
  current = Math.max(0, Math.min(index, game.frames.length - 1));
  const frame = game.frames[current];
  $("slider").max = String(game.frames.length - 1);
  $("slider").value = String(current);
  text("ply", current);
  text("ply-count", game.frames.length - 1);
  document.body.dataset.ply = String(current);
  drawHeader();
  drawBoard();
  drawPanels(frame);
  markCurrentRow();
  moveChartMarker();
  moveWinsMarker();
  sayHovered();
  follow = current === game.frames.length - 1;
  for (const hook of hooks.show) hook(frame);
}

function redraw() {
  if (!game) return;
  layout();
  drawMoveList(true);
  drawChart();
  drawWins();
  show(current);
}

// --- Controls: buttons, keys, the slider, the move list, the chart, zoom and pan. -------

function setPlaying(on) {
  if (timer) { clearInterval(timer); timer = null; }
  $("play").textContent = on ? "pause" : "play";
  if (on) {
    const speed = Number($("speed").value);
    timer = setInterval(() => {
      if (!game || current >= game.frames.length - 1) { if (!config.live) setPlaying(false); return; }
      show(current + 1);
    }, 500 / speed);
  }
}

function lastFrame() { return game ? game.frames.length - 1 : 0; }

function zoomBy(factor) { if (game) zoomAt(view.area.w / 2, view.area.h / 2, factor); }

function zoomFit() { if (game) { fitView(); scheduleBoard(); } }

$("first").onclick = () => show(0);
$("prev").onclick = () => show(current - 1);
$("next").onclick = () => show(current + 1);
$("last").onclick = () => show(lastFrame());
$("play").onclick = () => setPlaying(!timer);
$("speed").onchange = () => { if (timer) setPlaying(true); };
$("slider").oninput = () => show(Number($("slider").value));
$("zoom-in").onclick = () => zoomBy(1.5);
$("zoom-out").onclick = () => zoomBy(1 / 1.5);
$("zoom-fit").onclick = zoomFit;
$("move-list").onclick = (event) => {
  const row = event.target.closest("tbody tr");
  if (row) show(Number(row.dataset.ply));
};
$("chart").onclick = (event) => {
  if (!game) return;
  const box = $("chart").getBoundingClientRect();
  const share = (event.clientX - box.left - CHART.left) / (box.width - CHART.left - CHART.right);
  show(Math.round(Math.max(0, Math.min(1, share)) * lastFrame()));
};
$("cells-box").ontoggle = () => { if (game && $("cells-box").open) drawCells(game.frames[current]); };
document.addEventListener("keydown", (event) => {
  if (["SELECT", "TEXTAREA"].includes(event.target.tagName) || event.target.type === "number" ||
      event.ctrlKey || event.metaKey || event.altKey) return;
  const keys = {ArrowRight: () => show(current + 1), ArrowLeft: () => show(current - 1),
                Home: () => show(0), End: () => show(lastFrame()), " ": () => setPlaying(!timer),
                "+": () => zoomBy(1.5), "=": () => zoomBy(1.5), "-": () => zoomBy(1 / 1.5),
                "0": zoomFit};
  if (keys[event.key]) { keys[event.key](); event.preventDefault(); }
});
window.addEventListener("resize", () => { if (game) { layout(); drawChart(); drawWins(); show(current); } });

function areaPoint(event) {
  const box = $("stage").getBoundingClientRect();
  return [event.clientX - box.left - view.area.x, event.clientY - box.top - view.area.y];
}

$("stage").addEventListener("wheel", (event) => {
  if (!game) return;
  event.preventDefault();
  const [px, py] = areaPoint(event);
  zoomAt(px, py, Math.exp(-event.deltaY * (event.deltaMode ? 0.05 : 0.002)));
}, {passive: false});

let drag = null;
$("stage").addEventListener("pointerdown", (event) => {
  drag = {x: event.clientX, y: event.clientY, ox: view.ox, oy: view.oy};
  $("stage").setPointerCapture(event.pointerId);
  $("stage").classList.add("dragging");
});
$("stage").addEventListener("pointerup", (event) => {
  const still = drag && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4;
  drag = null;
  $("stage").classList.remove("dragging");
  if (!still || !game || !hooks.cell.length) return;
  const [px, py] = areaPoint(event);
  const x = Math.floor((px - view.ox) / view.s), y = Math.floor((py - view.oy) / view.s);
  if (px < 0 || py < 0 || px >= view.area.w || py >= view.area.h) return;
  if (x >= 0 && y >= 0 && x < game.cols && y < game.rows) for (const hook of hooks.cell) hook(x, y);
});
$("stage").addEventListener("pointermove", (event) => {
  if (!game) return;
  if (drag) {
    view.ox = drag.ox + event.clientX - drag.x;
    view.oy = drag.oy + event.clientY - drag.y;
    clampView();
    scheduleBoard();
  }
  const [px, py] = areaPoint(event);
  const x = Math.floor((px - view.ox) / view.s), y = Math.floor((py - view.oy) / view.s);
  const outside = px < 0 || py < 0 || px >= view.area.w || py >= view.area.h;
  hovered = outside || x < 0 || y < 0 || x >= game.cols || y >= game.rows ? null : [x, y];
  sayHovered();
});
$("stage").addEventListener("pointerleave", () => { hovered = null; sayHovered(); });

// The cell under the pointer, said for the ply shown (again whenever another ply is).
function sayHovered() {
  if (!game || !hovered) { text("hover", ""); return; }
  const [x, y] = hovered, here = game.frames[current].cells.get(y * game.cols + x);
  text("hover", here ? `(${x},${y}): ${here[1]} ${KINDS[here[0]]}` : `(${x},${y}): empty`);
}
$("stage").addEventListener("dblclick", (event) => {
  if (game && !hooks.cell.length) zoomAt(...areaPoint(event), 2);  // clicks have a use: no zoom
});

// --- Parts of a page's own (vvw/web/viewer.py's extras: the person at the board; later
// tools' panels): they find the game and hook into the page here. ---------------------
// hooks.show: f(frame) after a ply is shown; hooks.overlay: f(frame) → SVG elements drawn
// over the board and its counts (under the move badges); hooks.cell: f(x, y) for a click
// on a cell (a drag pans, as ever); hooks.events: {name: f(data)} for the live view's
// events of that name.
const hooks = {show: [], overlay: [], cell: [], events: {}};
const vvw = {
  hooks, $, svg, text,
  get game() { return game; },
  get current() { return current; },
  show: (index) => show(index),
  lastFrame: () => lastFrame(),
  scheduleBoard: () => scheduleBoard(),
  arrow: (move, kind) => arrow(move, shaft(move, true), kind),
  cellRect: (x, y, kind) => svg("rect", {"class": kind, x: view.ox + x * view.s + 1,
    y: view.oy + y * view.s + 1, width: view.s - 2, height: view.s - 2}),
};

// --- Where the events come from: embedded (a replay) or pushed (the live view). ---------

function offerTranscript(transcript) {
  const bytes = Uint8Array.from(atob(transcript.gzip), (c) => c.charCodeAt(0));
  const link = $("download");
  const ready = (blob, name) => {
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.title = `${name}, as the server wrote it`;
    link.hidden = false;
  };
  if (typeof DecompressionStream !== "function") {  // an older browser: the file as gzip
    ready(new Blob([bytes], {type: "application/gzip"}), transcript.name + ".gz");
    return;
  }
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).blob()
    .then((blob) => ready(new Blob([blob], {type: "application/x-ndjson"}), transcript.name));
}

function loadEvents(events) {
  for (const event of events) apply(event);
  if (game && config.analysis) addAnalysis(config.analysis);
  redraw();
}

// --- The analysis (vvw analyse): its marks on the plies, the better ply, the luck of each
// battle, and the vampires' winning chances under the board (click to jump). --------------

const LABEL_SYMBOLS = {inaccuracy: "?!", mistake: "?", blunder: "??"};

function movesText(moves) { return moves.map(moveText).join(", "); }

// A ply's frame: by its number (a bot's own transcript has no frames for the other side).
function addAnalysis(analysis) {
  game.analysis = analysis;
  const frames = new Map(game.frames.map((frame, i) => [frame.number ?? i, i]));
  for (const entry of analysis.plies) {
    entry.frame = frames.get(entry.ply);
    const frame = game.frames[entry.frame];
    if (!frame) continue;
    frame.analysis = entry;
    if (entry.label) {
      frame.marks.push({symbol: LABEL_SYMBOLS[entry.label], label: entry.label,
                        text: `${entry.label}: ${chanceText(entry.score)} → ${chanceText(entry.expected)} ` +
                              `(−${entry.drop.toFixed(0)})`, detail: "better " + movesText(entry.best)});
    }
  }
  const s = analysis.settings;
  text("analysis-settings", `(vvw analyse, ${s.seconds ? s.seconds + " s a position" : "depth " + s.depth})`);
  $("analysis-box").hidden = false;
  $("sides").tBodies[0].replaceChildren(...["vampires", "werewolves"].map((side) => {
    const d = analysis.sides[side], row = document.createElement("tr");
    const name = document.createElement("span");
    name.className = side;
    name.textContent = side;
    row.append(cell(name), cell(d.accuracy === null ? "–" : `accuracy ${d.accuracy.toFixed(0)} %`),
               cell(`${d.inaccuracies} ?! · ${d.mistakes} ? · ${d.blunders} ??`),
               cell(`play ${signed(-d.play)}`), cell(`luck ${signed(d.luck)}`));
    row.title = d.sentence;
    return row;
  }));
  $("turning").replaceChildren(...(analysis.turning_points || []).map((point) => {
    const item = document.createElement("li");
    item.textContent = point.text;
    return item;
  }));
}

// Points with their sign, rounded: "−12", "+3", "0".
function signed(points) {
  const rounded = Math.round(points);
  return rounded === 0 ? "0" : `${rounded > 0 ? "+" : "−"}${Math.abs(rounded)}`;
}

// A chance in whole points: 0 and 100 only when certain.
function chanceText(points) {
  const rounded = Math.round(points);
  if (points > 0 && points < 100 && rounded <= 0) return "<1";
  if (points > 0 && points < 100 && rounded >= 100) return ">99";
  return String(rounded);
}

// What the analysis says of a ply: its chances before and after, play and luck adding up.
function ledgerText(entry) {
  return `${entry.side}' chances ${chanceText(entry.score)} → ${chanceText(entry.after)}: ` +
         `play ${signed(entry.play)}, luck ${signed(entry.luck)}`;
}

// The better ply of a labelled ply: drawn dashed on its frame, beside the ply played.
function betterPly(frame) {
  const entry = frame.analysis;
  return entry && entry.label && entry.best ? entry.best : [];
}

function luckText(frame, b) {
  const entry = frame.analysis;
  const found = entry && entry.battles.find((l) => l.cell[0] === b.cell[0] && l.cell[1] === b.cell[1]);
  if (!found) return "";
  const sign = found.luck >= 0 ? "+" : "−";
  return ` · luck ${sign}${Math.abs(found.luck).toFixed(0)} for the ${found.side} ` +
         `(expected ${found.expected.toFixed(0)}, happened ${found.happened.toFixed(0)})`;
}

const WINS = {left: 36, right: 8, top: 6, bottom: 16};

// The vampires' expected score before each ply (100 − the werewolves' on theirs), the
// result at the end; a dot on each mistake and blunder, where the chances fell to.
function drawWins() {
  const chart = $("wins"), analysis = game && game.analysis;
  if (!analysis) return;
  const {w: width, h: height} = view.wins;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const last = Math.max(1, game.frames.length - 1);
  const plotW = width - WINS.left - WINS.right, plotH = height - WINS.top - WINS.bottom;
  const px = (i) => WINS.left + i / last * plotW, py = (v) => WINS.top + plotH - v / 100 * plotH;
  const parts = [];
  for (const v of [0, 50, 100]) {
    parts.push(svg("line", {x1: WINS.left, x2: width - WINS.right, y1: py(v), y2: py(v),
                            "class": v === 50 ? "grid" : "axis"}));
    const label = svg("text", {x: WINS.left - 4, y: py(v) + 3, "text-anchor": "end"});
    label.textContent = v + "%";
    parts.push(label);
  }
  const vampires = (entry, score) => entry.side === "vampires" ? score : 100 - score;
  const shown = analysis.plies.filter((entry) => entry.frame !== undefined);
  if (!shown.length) return;
  const points = shown.map((entry) => [entry.frame - 1, vampires(entry, entry.score)]);
  const end = analysis.vampires[analysis.vampires.length - 1];
  if (end !== null && end !== undefined) points.push([last, end]);
  const line = points.map(([i, v]) => `${px(i).toFixed(1)},${py(v).toFixed(1)}`);
  parts.push(svg("polygon", {points: [`${px(points[0][0])},${py(50)}`, ...line,
                                      `${px(points[points.length - 1][0])},${py(50)}`].join(" "),
                             fill: COLOURS[2], "fill-opacity": 0.12, stroke: "none"}));
  parts.push(svg("polyline", {points: line.join(" "), fill: "none", stroke: COLOURS[2],
                              "stroke-width": 1.6}));
  for (const entry of shown) {
    if (entry.label !== "mistake" && entry.label !== "blunder") continue;
    const dot = svg("circle", {cx: px(entry.frame), cy: py(vampires(entry, entry.after)),
                               r: entry.label === "blunder" ? 5 : 4, "class": `mark ${entry.label}`,
                               "data-ply": entry.frame});
    const title = svg("title", {});
    title.textContent = `ply ${entry.ply}, ${entry.side}: ${entry.label} (−${entry.drop.toFixed(0)}); ` +
                        "better " + movesText(entry.best);
    dot.appendChild(title);
    parts.push(dot);
  }
  parts.push(svg("line", {id: "wins-marker", y1: WINS.top, y2: WINS.top + plotH, stroke: colour("guide"),
                          "stroke-dasharray": "3 3"}));
  chart.replaceChildren(...parts);
  chart.dataset.last = last;
  moveWinsMarker();
}

function moveWinsMarker() {
  const marker = $("wins-marker");
  if (!marker) return;
  const at = WINS.left + current / Number($("wins").dataset.last) * (view.wins.w - WINS.left - WINS.right);
  marker.setAttribute("x1", at);
  marker.setAttribute("x2", at);
}

$("wins").onclick = (event) => {
  if (!game) return;
  const mark = event.target.closest(".mark");
  if (mark) { show(Number(mark.dataset.ply)); return; }
  const box = $("wins").getBoundingClientRect();
  const share = (event.clientX - box.left - WINS.left) / (box.width - WINS.left - WINS.right);
  show(Math.round(Math.max(0, Math.min(1, share)) * lastFrame()));
};

// Live: follow one game's events, and the list of games when there are several. When the
// command ends ("finished"), the stream ends and the page stays on the game's last ply.
const live = {source: null, listing: []};

function connect(gameId) {
  const source = new EventSource("events" + (gameId ? "?game=" + encodeURIComponent(gameId) : ""));
  live.source = source;
  text("status", "live: connecting…");
  source.onopen = () => text("status", "live");
  source.onerror = () => text("status", "live: connection lost, retrying…");
  source.addEventListener("view", (message) => {
    const event = JSON.parse(message.data);
    const wasFollowing = follow || !game;
    const before = game;
    apply(event);
    if (!game) return;
    if (game !== before) { layout(); drawMoveList(true); }
    else drawMoveList(event.type === "result" || event.type === "names");
    drawChart();
    show(wasFollowing ? game.frames.length - 1 : current);
  });
  for (const [name, hear] of Object.entries(hooks.events)) {
    source.addEventListener(name, (message) => hear(JSON.parse(message.data)));
  }
  source.addEventListener("games", (message) => {
    live.listing = JSON.parse(message.data);
    drawGames(gameId);
  });
  source.addEventListener("game", (message) => {
    const entry = JSON.parse(message.data);
    const at = live.listing.findIndex((other) => other.id === entry.id);
    if (at < 0) live.listing.push(entry); else live.listing[at] = entry;
    drawGames(gameId);
  });
  source.addEventListener("finished", () => {
    source.close();
    text("status", "finished");
    $("status").className = "finished";
    document.body.dataset.finished = "true";
    if (game) show(lastFrame());
  });
  return source;
}

function drawGames(gameId) {
  const listing = live.listing;
  const hidden = listing.length < 2 && !config.tournament;
  const changed = $("games-box").hidden !== hidden;
  $("games-box").hidden = hidden;
  if (changed && game) {  // the side panel changed: lay the page out again
    layout();
    drawChart();
    show(current);
  }
  const shown = gameId || (listing.length ? listing[listing.length - 1].id : null);
  $("games").replaceChildren(...listing.slice().reverse().map((entry) => {  // newest first
    const item = document.createElement("li");
    item.textContent = `${entry.title} — ${entry.status}`;
    item.dataset.game = entry.id;
    item.dataset.plies = entry.plies;
    if (String(entry.id) === String(shown)) item.className = "current";
    item.onclick = () => { window.location.search = "?game=" + encodeURIComponent(entry.id); };
    return item;
  }));
  fitMoveList();
}

if (config.live) {
  if (config.tournament) { $("dashboard").href = "./"; $("dashboard").hidden = false; }
  // Once loaded: an event stream open for good must not hold the page's load event.
  const params = new URLSearchParams(window.location.search);
  if (document.readyState === "complete") connect(params.get("game"));
  else window.addEventListener("load", () => connect(params.get("game")), {once: true});
} else {
  loadEvents(config.events || []);
  if (config.transcript) offerTranscript(config.transcript);
  if (config.back) {  // where the replay was opened from: a report's index, a ladder's games
    $("dashboard").href = config.back.href;
    $("dashboard").textContent = config.back.text;
    $("dashboard").hidden = false;
  }
}
