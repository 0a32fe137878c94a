// Small SVG charts for the statistics pages: a score race and a distribution against another.
"use strict";

const Charts = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = ["#c82828", "#1e5ac8", "#1e963c", "#c88200"];
  const pct = (v) => new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(v);
  const number = (v) => new Intl.NumberFormat(document.documentElement.lang).format(v);
  function svg(tag, attrs = {}, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  // A chart with its text alternative: what a screen reader says for the picture.
  function frame(width, height, words) {
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": words });
    chart.append(svg("title", {}, words));
    return chart;
  }

  // names: the sides; race: each side's [score after deal 0, 1, ...]; skunkLines: the game's, dashed.
  function race(names, race, target, skunkLines, upTo = Infinity) {
    const W = 900, H = 360, L = 50, R = 150, T = 16, B = 36;
    const deals = Math.max(1, ...race.map((scores) => scores.length - 1));
    const shown = Math.min(deals, upTo);
    const chart = frame(W, H, fmt(ngettext("Score race after {deals} deal: {scores}", "Score race after {deals} deals: {scores}", shown), { deals: shown,
      scores: names.map((side, i) => `${side} ${race[i][Math.min(race[i].length - 1, shown)]}`).join(", ") }));
    const x = (d) => L + (W - L - R) * d / deals;
    const y = (s) => T + (H - T - B) * (1 - s / target);
    for (let s = 0; s <= target; s += target > 61 ? 20 : 10) {
      chart.append(svg("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), class: "grid" }), svg("text", { x: L - 8, y: y(s) + 4, "text-anchor": "end" }, s));
    }
    for (const s of skunkLines) chart.append(svg("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), class: "skunk" }));
    for (let d = 0; d <= deals; d++) chart.append(svg("text", { x: x(d), y: H - 14, "text-anchor": "middle" }, d));
    chart.append(svg("text", { x: (L + W - R) / 2, y: H - 1, "text-anchor": "middle" }, _("deal")));
    names.forEach((side, i) => {
      const scores = race[i].slice(0, Math.min(race[i].length, upTo + 1));
      const points = scores.map((s, d) => `${x(d)},${y(Math.min(s, target))}`).join(" ");
      chart.append(svg("polyline", { points, fill: "none", stroke: COLOURS[i % 4], "stroke-width": 3 }));
      const last = scores[scores.length - 1];
      chart.append(svg("text", { x: W - R + 8, y: y(Math.min(last, target)) + 4, style: `fill: ${COLOURS[i % 4]}` }, `${side} ${last}`));
    });
    return chart;
  }

  // counts: this player's hands per score 0..29; all: the share of all hands per score.
  function distribution(counts, all, label) {
    const W = 900, H = 300, L = 50, T = 16, B = 36;
    const total = counts.reduce((a, b) => a + b, 0) || 1;
    const often = counts.map((n, s) => [n, s]).filter(([n]) => n).sort((a, b) => b[0] - a[0]).slice(0, 3);
    const chart = frame(W, H, fmt(_("{label} by points against all hands; most often: {often}"), { label,
      often: often.map(([n, s]) => fmt(_("{points} points {percent}"), { points: s, percent: pct(n / total) })).join(", ") || "–" }));
    const shares = counts.map((c) => c / total);
    const top = Math.max(0.05, ...shares, ...all);
    const step = (W - L - 10) / 30;
    const y = (v) => T + (H - T - B) * (1 - v / top);
    const tick = top > 0.5 ? 0.2 : top > 0.2 ? 0.1 : 0.05;
    for (let v = 0; v <= top + 1e-9; v += tick) {
      chart.append(svg("line", { x1: L, x2: W - 10, y1: y(v), y2: y(v), class: "grid" }), svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, pct(v)));
    }
    const MINE = COLOURS[1], ALL = "#b9a894";  // the player's bars and all hands' bars, and their legend's squares
    for (let s = 0; s < 30; s++) {
      chart.append(svg("rect", { x: L + s * step + 2, y: y(shares[s]), width: step * 0.55, height: H - B - y(shares[s]), fill: MINE }));
      chart.append(svg("rect", { x: L + s * step + 2 + step * 0.55, y: y(all[s]), width: step * 0.35, height: H - B - y(all[s]), fill: ALL }));
      if (s % 2 === 0) chart.append(svg("text", { x: L + s * step + step / 2, y: H - 18, "text-anchor": "middle" }, s));
    }
    chart.append(svg("rect", { x: W - 306, y: 13, width: 290, height: 44, rx: 4, style: "fill: var(--panel, #fff); opacity: 0.9" }));
    [[MINE, label], [ALL, fmt(_("all {hands} hands"), { hands: number(12994800) })]].forEach(([colour, words], row) => {
      chart.append(svg("rect", { x: W - 300, y: 19 + row * 20, width: 12, height: 12, fill: colour, class: "key" }),
        svg("text", { x: W - 282, y: 30 + row * 20 }, words));
    });
    return chart;
  }
  return { race, distribution };
})();
