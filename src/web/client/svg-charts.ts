import { s } from "./dom.js";

const [PADL, PADB, PADT] = [36, 28, 10];

function axis(w: number, hgt: number, max: number): SVGElement {
  const g = s("g", { class: "axis" });
  for (const f of [0, 0.5, 1]) {
    const y = PADT + (hgt - PADT - PADB) * (1 - f);
    g.append(
      s("line", { x1: PADL, x2: w, y1: y, y2: y }),
      s("text", { x: PADL - 4, y: y + 4, "text-anchor": "end" }, String(Math.round(max * f))),
    );
  }
  return g;
}

/** Grouped bars per day (opened / closed), labelled every few days. */
export function dayBars(days: Array<{ day: string; a: number; b: number }>, labels: [string, string]): SVGElement {
  const w = Math.max(640, PADL + days.length * 22);
  const hgt = 220;
  const max = Math.max(1, ...days.flatMap((d) => [d.a, d.b]));
  const bw = (w - PADL) / Math.max(1, days.length);
  const scale = (v: number) => ((hgt - PADT - PADB) * v) / max;
  const svg = s(
    "svg",
    {
      class: "chart",
      width: w,
      height: hgt + 18,
      viewBox: `0 0 ${w} ${hgt + 18}`,
      role: "img",
      "aria-label": `${labels[0]} and ${labels[1]} per day`,
    },
    axis(w, hgt, max),
  );
  days.forEach((d, i) => {
    const x = PADL + i * bw;
    for (const [k, v] of [
      ["a", d.a],
      ["b", d.b],
    ] as const) {
      const bh = scale(v);
      svg.append(
        s(
          "rect",
          {
            class: `bar-${k}`,
            x: x + (k === "a" ? 1 : bw / 2),
            y: hgt - PADB - bh,
            width: Math.max(1, bw / 2 - 1),
            height: bh,
          },
          s("title", {}, `${d.day}: ${v} ${k === "a" ? labels[0] : labels[1]}`),
        ),
      );
    }
    if (i % Math.ceil(days.length / 8) === 0)
      svg.append(s("text", { class: "tick", x, y: hgt - PADB + 14 }, d.day.slice(5)));
  });
  svg.append(legend(w, hgt + 14, labels));
  return svg;
}

/** A line per series over days (the burn-down: remaining and total). */
export function dayLines(days: string[], series: Array<{ name: string; values: number[] }>): SVGElement {
  const w = Math.max(640, PADL + days.length * 24);
  const hgt = 220;
  const max = Math.max(1, ...series.flatMap((x) => x.values));
  const step = (w - PADL - 8) / Math.max(1, days.length - 1);
  const svg = s(
    "svg",
    {
      class: "chart",
      width: w,
      height: hgt + 18,
      viewBox: `0 0 ${w} ${hgt + 18}`,
      role: "img",
      "aria-label": "burn-down",
    },
    axis(w, hgt, max),
  );
  series.forEach((x, k) => {
    const pts = x.values.map(
      (v, i) => `${(PADL + i * step).toFixed(1)},${(hgt - PADB - ((hgt - PADT - PADB) * v) / max).toFixed(1)}`,
    );
    svg.append(s("polyline", { class: `line-${k}`, points: pts.join(" ") }, s("title", {}, x.name)));
  });
  days.forEach((d, i) => {
    if (i % Math.ceil(days.length / 8) === 0)
      svg.append(s("text", { class: "tick", x: PADL + i * step, y: hgt - PADB + 14 }, d.slice(5)));
  });
  svg.append(legend(w, hgt + 14, series.map((x) => x.name) as [string, string]));
  return svg;
}

/** Horizontal bars: one row per label with two values (median and 90th percentile). */
export function rowBars(
  rows: Array<{ label: string; a: number; b: number; note: string }>,
  labels: [string, string],
): SVGElement {
  const w = 680;
  const rh = 30;
  const hgt = rows.length * rh + 24;
  const max = Math.max(0.01, ...rows.flatMap((r) => [r.a, r.b]));
  const x0 = 110;
  const span = w - x0 - 200;
  const svg = s("svg", {
    class: "chart",
    width: w,
    height: hgt,
    viewBox: `0 0 ${w} ${hgt}`,
    role: "img",
    "aria-label": labels.join(" and "),
  });
  rows.forEach((r, i) => {
    const y = i * rh + 4;
    svg.append(
      s("text", { x: x0 - 6, y: y + 15, "text-anchor": "end" }, r.label),
      s(
        "rect",
        { class: "bar-a", x: x0, y, width: Math.max(1, (span * r.a) / max), height: 11 },
        s("title", {}, `${r.label}: ${labels[0]} ${r.a} h`),
      ),
      s(
        "rect",
        { class: "bar-b", x: x0, y: y + 12, width: Math.max(1, (span * r.b) / max), height: 11 },
        s("title", {}, `${r.label}: ${labels[1]} ${r.b} h`),
      ),
      s("text", { x: x0 + span + 6, y: y + 15 }, r.note),
    );
  });
  svg.append(legend(w, hgt - 4, labels));
  return svg;
}

function legend(w: number, y: number, labels: string[]): SVGElement {
  const g = s("g", { class: "legend" });
  labels.forEach((l, i) => {
    const x = w - 220 + i * 110;
    g.append(
      s("rect", { class: i === 0 ? "bar-a" : "bar-b", x, y: y - 9, width: 10, height: 10 }),
      s("text", { x: x + 14, y }, l),
    );
  });
  return g;
}
