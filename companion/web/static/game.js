// A game's page: its score race and each deal replayed in turn (starter, hands, pegging, the show as said).
"use strict";

(() => {
  const { el } = Crib;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  let game = null;
  let at = 1;
  const cards = (codes) => (codes || []).map((code) => Crib.cardFace({ code, suit: code.slice(-1) }));

  function show() {
    const deal = game.deals[at - 1];
    $("which").textContent = `deal ${at} of ${game.deals.length}`;
    $("previous").disabled = at <= 1;
    $("next").disabled = at >= game.deals.length;
    $("race").replaceChildren(Charts.race(game.race, game.target, at));
    const rows = [el("div", { class: "row" }, el("span", { class: "label" }, "Dealer"), deal.dealer),
      el("div", { class: "row" }, el("span", { class: "label" }, "Starter"), deal.starter ? cards([deal.starter]) : "–")];
    for (const [player, hand] of Object.entries(deal.hands)) {
      rows.push(el("div", { class: "row" }, el("span", { class: "label" }, player), cards(hand),
        deal.discards[player] ? el("span", { class: "tag" }, `laid away ${deal.discards[player].join(" ")}`) : null));
    }
    rows.push(el("div", { class: "row" }, el("span", { class: "label" }, "Pegging"),
      Object.entries(deal.pegging).map(([p, v]) => `${p} ${v}`).join(", ") + (deal.his_heels ? ` · his heels ${deal.his_heels}` : "")));
    const said = game.events.filter((e) => e.deal === at);
    rows.push(el("ol", { class: "said" }, said.map((e) => el("li", {}, el("b", {}, `${e.label}: ${e.points}`),
      ` ${e.player && !e.label.startsWith(e.player) ? e.player + " · " : ""}`, el("span", { class: "words" }, e.said || "")))));
    $("deal").replaceChildren(...rows);
  }

  async function load() {
    const response = await fetch(`/api/games/${parts[1]}/${parts[2]}`);
    const data = await response.json();
    if (!response.ok) { $("problem").textContent = data.error; return; }
    game = data;
    $("title").textContent = `${game.log}, game ${game.game}: ${game.sides.join(" v ")}${game.winner ? ` · ${game.winner} won` : ""}`;
    $("previous").addEventListener("click", () => { at -= 1; show(); });
    $("next").addEventListener("click", () => { at += 1; show(); });
    if (game.deals.length) show();
  }
  load();
})();
