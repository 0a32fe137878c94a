// A game's page: its score race and each deal replayed in turn (starter, hands, pegging, the show as said).
"use strict";

(() => {
  const { el } = Crib;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  let game = null;
  let race = [];
  let at = 1;
  const cards = (faces) => (faces || []).map((card) => Crib.cardFace(card));

  function show() {
    const deal = game.deals[at - 1];
    $("which").textContent = fmt(_("deal {deal} of {deals}"), { deal: at, deals: game.deals.length });
    $("previous").disabled = at <= 1;
    $("next").disabled = at >= game.deals.length;
    $("race").replaceChildren(Charts.race(game.sides.map((s) => s.name), race, game.rules.target, game.rules.skunk_lines, at));
    const rows = [el("div", { class: "row" }, el("span", { class: "label" }, _("Dealer")), deal.dealer),
      el("div", { class: "row" }, el("span", { class: "label" }, _("Starter")), deal.starter ? cards([deal.starter]) : "–")];
    for (const [player, hand] of Object.entries(deal.hands)) {
      rows.push(el("div", { class: "row" }, el("span", { class: "label" }, player), cards(hand),
        deal.discards[player] ? el("span", { class: "discards" }, _("laid away"), " ", cards(deal.discards[player])) : null));
    }
    rows.push(el("div", { class: "row" }, el("span", { class: "label" }, _("Pegging")),
      Object.entries(deal.pegging).map(([p, v]) => `${p} ${v}`).join(", ")));
    rows.push(el("ol", { class: "said" }, game.events.filter((e) => e.deal === at).map(Crib.eventItem)));
    $("deal").replaceChildren(...rows);
  }

  async function load() {
    const response = await fetch(`/api/games/${parts[1]}/${parts[2]}`);
    const data = await response.json();
    if (!response.ok) { $("problem").textContent = data.error; return; }
    game = data.state;
    race = data.race;
    const names = game.sides.map((s) => s.name);
    const won = game.winner !== null ? fmt(_("{winner} won"), { winner: names[game.winner] }) : "";
    $("title").textContent = Crib.gameName(data.played, names, data.levels) + (won ? " · " + won : "");
    $("previous").addEventListener("click", () => { at -= 1; show(); });
    $("next").addEventListener("click", () => { at += 1; show(); });
    if (game.deals.length) show();
  }
  load();
})();
