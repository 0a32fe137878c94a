// The statistics page: per-player figures, the score race of any game, a player's hands against all hands.
"use strict";

(() => {
  const { el } = Crib;
  const $ = (id) => document.getElementById(id);
  const fixed = (v, n = 2) => (v === null || v === undefined ? "–" : Number(v).toFixed(n));

  async function load() {
    const response = await fetch("/api/stats");
    const data = await response.json();
    if (!response.ok) { $("problems").textContent = data.error; return; }
    $("summary").textContent = fmt(_("{games} games finished, {unfinished} under way, from {logs} logs."), data);
    const players = Object.values(data.players);
    $("players").tBodies[0].replaceChildren(...players.map((p) => el("tr", {},
      el("td", {}, p.player), el("td", {}, p.games), el("td", {}, p.wins), el("td", {}, p.skunks_given),
      el("td", {}, p.skunks_taken), el("td", {}, fixed(p.pegging)), el("td", {}, fixed(p.hand)), el("td", {}, fixed(p.crib)),
      el("td", {}, p.best_hand ?? "–"), el("td", {}, p.coached ? `${fixed(p.discard_loss)} (${p.coached} deals)` : "–"))));
    $("best").replaceChildren(...data.best_hands.map((b) => el("li", {}, `${b.player}: ${b.hand} points (`,
      el("a", { href: `/games/${b.log}/${b.game}` }, `${b.log} game ${b.game}`), `, deal ${b.deal})`)));
    const games = data.games_list.filter((g) => g.race.some((r) => r.length > 1));
    $("game").replaceChildren(...games.slice().reverse().map((g, i) => el("option", { value: i },
      `${g.log} game ${g.game}: ${g.sides.map((s, j) => `${s} ${g.scores[j]}`).join(", ")}${g.winner !== null ? ` · ${g.sides[g.winner]} won` : ""}`)));
    const pick = () => {
      const g = games.slice().reverse()[Number($("game").value)];
      if (!g) return;
      $("race").replaceChildren(Charts.race(g.sides, g.race, g.target, g.skunk_lines));
      $("replay").href = `/games/${g.log}/${g.game}`;
    };
    $("game").addEventListener("change", pick);
    pick();
    $("player").replaceChildren(...players.map((p) => el("option", {}, p.player)));
    const hands = async () => {
      const player = $("player").value;
      if (!player) return;
      const found = await (await fetch(`/api/hands?player=${encodeURIComponent(player)}`)).json();
      $("hands-note").textContent = fmt(_("{hands} hands counted"), found);
      $("hands").replaceChildren(Charts.distribution(found.counts, found.all, `${player}'s hands`));
    };
    $("player").addEventListener("change", hands);
    hands();
    $("problems").textContent = data.problems.join(" ");
  }
  load();
})();
