"use strict";
// The live dashboard: a new body after each game, the games in progress at each ply,
// "finished" when the tournament ends (the page then stays as it is).
const playing = new Map();
function drawPlaying() {
  const list = document.getElementById("playing");
  if (!list) return;
  list.replaceChildren(...[...playing.values()].filter((game) => !game.finished).map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "?game=" + encodeURIComponent(game.id);
    link.textContent = game.title;
    item.dataset.game = game.id;
    item.dataset.plies = game.plies;
    item.append(link, " — " + game.status);
    return item;
  }));
}
function connect() {
  const status = document.getElementById("status");
  const source = new EventSource("events?board=1");
  source.onopen = () => { status.textContent = "live"; };
  source.onerror = () => { status.textContent = "connection lost, retrying…"; };
  source.addEventListener("board", (message) => {
    document.getElementById("board").innerHTML = JSON.parse(message.data);  // escaped by vvw
  });
  source.addEventListener("games", (message) => {
    playing.clear();
    for (const game of JSON.parse(message.data)) playing.set(game.id, game);
    drawPlaying();
  });
  source.addEventListener("game", (message) => {
    const game = JSON.parse(message.data);
    playing.set(game.id, game);
    drawPlaying();
  });
  source.addEventListener("finished", () => {
    source.close();
    status.textContent = "finished";
    status.className = "finished";
    document.body.dataset.finished = "true";
  });
}
if (document.readyState === "complete") connect();
else window.addEventListener("load", connect, {once: true});
