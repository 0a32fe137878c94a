// The statistics page: per-player figures, the score race of any game, a player's hands against all hands.
"use strict";

(() => {
  const { el, num } = Crib;
  const $ = (id) => document.getElementById(id);
  const HEADS = [...document.querySelectorAll("#players thead th")].map((th) => th.textContent);
  const lang = () => document.documentElement.lang || "en";

  // A game as a player tells it from the others: when (day and minute), who played (a computer player with
  // its level) with the final scores, and a skunk or that it is under way.
  function gameTitle(g) {
    const when = g.played ? new Intl.DateTimeFormat(lang(), { dateStyle: "medium", ...(g.time ? { timeStyle: "short" } : {}) })
      .format(new Date(`${g.played}T${g.time || "12:00"}`)) : "";
    const sides = g.sides.map(({ name, score }) => (g.levels && g.levels[name]
      ? fmt(_("{side} ({level}) {score}"), { side: name, level: _(g.levels[name]), score: num(score) })
      : `${name} ${num(score)}`)).join(_(" v "));
    const named = when ? fmt(_("{when}, {sides}"), { when, sides }) : sides;
    if (!g.finished) return fmt(_("{game} (under way)"), { game: named });
    if (g.skunk) return fmt(g.skunk === "double skunk" ? _("{game} (a double skunk)") : _("{game} (a skunk)"), { game: named });
    return named;
  }

  async function load() {
    const response = await fetch("/api/stats");
    const data = await response.json();
    if (!response.ok) { $("problems").textContent = data.error; return; }
    $("summary").textContent = fmt(_("Games finished: {games} · under way: {unfinished} · logs: {logs}"),
      { games: num(data.games), unfinished: num(data.unfinished), logs: num(data.logs) });
    const players = Object.values(data.players);
    $("players").tBodies[0].replaceChildren(...players.map((p) => el("tr", {}, ...[
      p.player, num(p.games), num(p.wins), num(p.skunks_given), num(p.skunks_taken), num(p.pegging, 2), num(p.hand, 2),
      num(p.crib, 2), p.best_hand ?? "–",
      p.coached ? fmt(_("{points} ({deals} deals)"), { points: num(p.discard_loss, 2), deals: num(p.coached) }) : "–",
    ].map((value, i) => el("td", { "data-label": HEADS[i] }, String(value))))));
    const games = data.games_list.filter((g) => g.race.some((r) => r.length > 1)).reverse();
    const named = gameTitle;
    const faces = (cards) => el("span", { class: "discards" }, cards.map((c) => Crib.cardFace(c)));
    if (data.costly_discards.length) {
      $("discards").replaceChildren(...data.costly_discards.map((d) => {
        const g = data.games_list.find((x) => x.log === d.log && x.game === d.game);
        return el("li", {}, el("b", {}, d.player), " ", _("laid away"), " ", faces(d.laid), " ", _("instead of"), " ",
          faces(d.best), ": ", fmt(_("{points} points given away"), { points: num(d.loss, 2) }), " · ",
          el("a", { class: "to-game", href: `/games/${d.log}/${d.game}` },
            `${g ? named(g) : d.log}, ${fmt(_("deal {deal}"), { deal: d.deal })}`));
      }));
    }
    $("best").replaceChildren(...data.best_hands.map((b) => {
      const g = data.games_list.find((x) => x.log === b.log && x.game === b.game);
      return el("li", {}, el("a", { class: "to-game", href: `/games/${b.log}/${b.game}` },
        fmt(_("{player}: {points} points"), { player: b.player, points: b.hand }), " · ",
        g ? named(g) : `${b.log} ${b.game}`, ", ", fmt(_("deal {deal}"), { deal: b.deal })));
    }));
    $("game").replaceChildren(...games.map((g, i) => el("option", { value: i },
      g.winner !== null ? fmt(_("{game}: {winner} won"), { game: named(g), winner: g.sides[g.winner].name }) : named(g))));
    $("game").value = String(Math.max(0, games.findIndex((g) => g.finished)));  // the latest finished game
    const pick = () => {
      const g = games[Number($("game").value)];
      if (!g) return;
      $("race").replaceChildren(Charts.race(g.sides.map((side) => side.name), g.race, g.target, g.skunk_lines));
      $("replay").href = `/games/${g.log}/${g.game}`;
    };
    $("game").addEventListener("change", pick);
    pick();
    $("player").replaceChildren(...players.map((p) => el("option", {}, p.player)));
    const hands = async () => {
      const player = $("player").value;
      if (!player) return;
      const found = await (await fetch(`/api/hands?player=${encodeURIComponent(player)}`)).json();
      $("hands-note").textContent = fmt(_("{hands} hands counted"), { hands: num(found.hands) });
      $("hands").replaceChildren(Charts.distribution(found.counts, found.all, fmt(_("{player}'s hands"), { player })));
    };
    $("player").addEventListener("change", hands);
    hands();
    $("problems").textContent = data.problems.join(" ");
  }
  load();
})();
