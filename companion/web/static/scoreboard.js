// The scoreboard: the scores large, whose turn, and the last score as it was said.
"use strict";

(() => {
  const { el } = Crib;
  const $ = (id) => document.getElementById(id);
  function render(snapshot) {
    const state = snapshot.state;
    document.body.dataset.inputs = String(state.inputs);
    const turnSide = state.turn ? state.sides.find((s) => s === state.turn || s.split(" & ").includes(state.turn)) : null;
    $("scores").replaceChildren(...state.sides.map((side, i) => el("div", {
      class: `big-side${side === turnSide && state.phase === "play" ? " turn" : ""}`, "data-side": side,
    },
    el("div", { class: "name" }, side, state.dealer && side.split(" & ").includes(state.dealer) ? el("span", { class: "tag" }, _("deals")) : null),
    el("div", { class: "score" }, String(state.scores[side] ?? 0)),
    el("div", { class: "bar", style: `background:${snapshot.colours[i]}` }),
    state.match_target ? el("div", { class: "name" }, `match ${state.match_points[side] ?? 0} / ${state.match_target}`) : null)));
    $("status").textContent = state.phase === "play" ? `${fmt(_("count {count}"), { count: state.count })} · ${snapshot.prompt}` : snapshot.prompt;
    const events = state.events.length ? state.events : state.last_events;
    const last = events[events.length - 1];
    $("last").replaceChildren(...(last ? [`${last.label} ${last.points}`, el("span", { class: "words" }, last.said)] : []));
    Crib.drawBoard($("board"), snapshot);
  }
  Crib.connect(render, (up) => { $("link").textContent = up ? "live" : "reconnecting…"; $("link").classList.toggle("down", !up); });
})();
