// The scoreboard: the scores large, whose turn, and the last score as it was said.
"use strict";

(() => {
  const { el } = Crib;
  const $ = (id) => document.getElementById(id);
  function render(snapshot) {
    const state = snapshot.state;
    document.body.dataset.inputs = String(state.inputs);
    $("scores").replaceChildren(...state.sides.map((side, i) => el("div", {
      class: `big-side${state.phase === "play" && side.players.includes(state.turn) ? " turn" : ""}`, "data-side": side.name,
    },
    el("div", { class: "name" }, side.name, state.dealer && side.players.includes(state.dealer) ? el("span", { class: "tag" }, _("deals")) : null),
    el("div", { class: "score" }, String(side.score)),
    el("div", { class: "bar", style: `background:${snapshot.colours[i]}` }),
    state.rules.match_target ? el("div", { class: "name" }, fmt(_("match {points} / {target}"), { points: side.match_points, target: state.rules.match_target })) : null)));
    $("status").textContent = state.phase === "play" ? `${fmt(_("count {count}"), { count: state.count })} · ${snapshot.prompt}` : snapshot.prompt;
    const last = state.events[state.events.length - 1];
    $("last").replaceChildren(...(last ? [`${last.name} ${last.points}`, el("span", { class: "words" }, last.said)] : []));
    Crib.drawBoard($("board"), snapshot);
    Crib.announce($("announce"), snapshot);
  }
  Crib.connect(render, (up) => { $("link").textContent = up ? _("live") : _("reconnecting…"); $("link").classList.toggle("down", !up); });
})();
