// Draws the demo catalog's product pictures: flat illustrations of 40 kinds of product (four per
// category), each in three colourways and three views (studio, on a table, close-up), rendered in
// pure JavaScript (a small anti-aliased scanline rasteriser) and written as PNG with node:zlib.
// No image library is needed, and the output is deterministic: running it again gives the same
// bytes. The seed (src/server/db/seed/demo-products.ts) copies these files into the object store.
//
//   node scripts/generate-demo-images.mjs
//
// Output: src/server/db/seed/images/<kind>-<colourway>-<view>.png and manifest.json.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import prettier from 'prettier';

const OUT = path.resolve(import.meta.dirname, '../src/server/db/seed/images');
const WIDTH = 400;
const HEIGHT = 300;
/** Sub-scanlines per pixel row: vertical anti-aliasing (horizontal coverage is exact). */
const SUB = 4;

// ---------------------------------------------------------------------------------------------
// Colours

function hex(color) {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
/** Mixes towards white (amount > 0) or black (amount < 0). */
function shade(color, amount) {
  const c = typeof color === 'string' ? hex(color) : color;
  const target = amount > 0 ? 255 : 0;
  const k = Math.abs(amount);
  return c.map((v) => v + (target - v) * k);
}
function mix(a, b, t) {
  const ca = typeof a === 'string' ? hex(a) : a;
  const cb = typeof b === 'string' ? hex(b) : b;
  return ca.map((v, i) => v + (cb[i] - v) * t);
}
const rgb = (color) => (typeof color === 'string' ? hex(color) : color);

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// The rasteriser: polygons in local coordinates, an affine transform, non-zero or even-odd fill,
// exact horizontal coverage and SUB sub-scanlines, composited over a float RGB buffer.

export class Canvas {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.pixels = new Float32Array(width * height * 3);
    this.matrix = [1, 0, 0, 1, 0, 0];
    this.stack = [];
    this.coverage = new Float32Array(width + 2);
  }
  save() {
    this.stack.push([...this.matrix]);
  }
  restore() {
    this.matrix = this.stack.pop();
  }
  transform(a, b, c, d, e, f) {
    const [m0, m1, m2, m3, m4, m5] = this.matrix;
    this.matrix = [
      m0 * a + m2 * b,
      m1 * a + m3 * b,
      m0 * c + m2 * d,
      m1 * c + m3 * d,
      m0 * e + m2 * f + m4,
      m1 * e + m3 * f + m5,
    ];
  }
  translate(x, y) {
    this.transform(1, 0, 0, 1, x, y);
  }
  scale(x, y = x) {
    this.transform(x, 0, 0, y, 0, 0);
  }
  rotate(degrees, cx = 0, cy = 0) {
    const r = (degrees * Math.PI) / 180;
    this.translate(cx, cy);
    this.transform(Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0);
    this.translate(-cx, -cy);
  }
  point(x, y) {
    const [a, b, c, d, e, f] = this.matrix;
    return [a * x + c * y + e, b * x + d * y + f];
  }
  /** A paint varying along a line (local coordinates), with colour stops [[t, colour], …]. */
  linear(x0, y0, x1, y1, stops) {
    const [ax, ay] = this.point(x0, y0);
    const [bx, by] = this.point(x1, y1);
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy || 1;
    const colours = stops.map(([t, c]) => [t, rgb(c)]);
    return (x, y) => gradientAt(colours, ((x - ax) * dx + (y - ay) * dy) / len2);
  }
  /** A paint varying with the distance from a centre (local coordinates). */
  radial(cx, cy, radius, stops) {
    const [ax, ay] = this.point(cx, cy);
    const [rx, ry] = this.point(cx + radius, cy);
    const r = Math.hypot(rx - ax, ry - ay) || 1;
    const colours = stops.map(([t, c]) => [t, rgb(c)]);
    return (x, y) => gradientAt(colours, Math.hypot(x - ax, y - ay) / r);
  }
  /** Fills contours (arrays of [x, y]) with a colour or paint. */
  fill(contours, paint, { opacity = 1, rule = 'nonzero' } = {}) {
    const colour = typeof paint === 'function' ? null : rgb(paint);
    const edges = [];
    let minY = Infinity;
    let maxY = -Infinity;
    let minX = Infinity;
    let maxX = -Infinity;
    for (const contour of contours) {
      const pts = contour.map(([x, y]) => this.point(x, y));
      for (let i = 0; i < pts.length; i++) {
        const [x0, y0] = pts[i];
        const [x1, y1] = pts[(i + 1) % pts.length];
        minX = Math.min(minX, x0);
        maxX = Math.max(maxX, x0);
        if (y0 === y1) continue;
        edges.push(y0 < y1 ? [x0, y0, x1, y1, 1] : [x1, y1, x0, y0, -1]);
        minY = Math.min(minY, y0, y1);
        maxY = Math.max(maxY, y0, y1);
      }
    }
    if (edges.length === 0) return;
    const rowStart = Math.max(0, Math.floor(minY));
    const rowEnd = Math.min(this.height - 1, Math.ceil(maxY));
    const colStart = Math.max(0, Math.floor(minX));
    const colEnd = Math.min(this.width - 1, Math.ceil(maxX));
    const cov = this.coverage;
    const crossings = [];
    for (let y = rowStart; y <= rowEnd; y++) {
      cov.fill(0, colStart, colEnd + 2);
      let any = false;
      for (let s = 0; s < SUB; s++) {
        const sy = y + (s + 0.5) / SUB;
        crossings.length = 0;
        for (const [x0, y0, x1, y1, dir] of edges) {
          if (sy < y0 || sy >= y1) continue;
          crossings.push([x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0), dir]);
        }
        if (crossings.length < 2) continue;
        crossings.sort((p, q) => p[0] - q[0]);
        let winding = 0;
        for (let i = 0; i < crossings.length - 1; i++) {
          winding += crossings[i][1];
          const inside = rule === 'evenodd' ? (i + 1) % 2 === 1 : winding !== 0;
          if (!inside) continue;
          const xa = Math.max(colStart, crossings[i][0]);
          const xb = Math.min(colEnd + 1, crossings[i + 1][0]);
          if (xb <= xa) continue;
          any = true;
          const ia = Math.floor(xa);
          const ib = Math.floor(xb);
          const w = 1 / SUB;
          if (ia === ib) cov[ia] += (xb - xa) * w;
          else {
            cov[ia] += (ia + 1 - xa) * w;
            for (let k = ia + 1; k < ib; k++) cov[k] += w;
            cov[ib] += (xb - ib) * w;
          }
        }
      }
      if (!any) continue;
      for (let x = colStart; x <= colEnd; x++) {
        const c = cov[x];
        if (c <= 0) continue;
        const alpha = Math.min(1, c) * opacity;
        const [r, g, b] = colour ?? paint(x + 0.5, y + 0.5);
        const i = (y * this.width + x) * 3;
        const px = this.pixels;
        px[i] += (r - px[i]) * alpha;
        px[i + 1] += (g - px[i + 1]) * alpha;
        px[i + 2] += (b - px[i + 2]) * alpha;
      }
    }
  }
  toRgbBytes() {
    const out = new Uint8Array(this.width * this.height * 3);
    for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(this.pixels[i])));
    return out;
  }
}

function gradientAt(stops, t) {
  if (t <= stops[0][0]) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [t1, c1] = stops[i];
    if (t <= t1) {
      const [t0, c0] = stops[i - 1];
      return mix(c0, c1, (t - t0) / (t1 - t0 || 1));
    }
  }
  return stops[stops.length - 1][1];
}

// ---------------------------------------------------------------------------------------------
// Shapes (contours in local coordinates)

const rect = (x, y, w, h) => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
];
function arcPoints(cx, cy, rx, ry, from, to, steps = 24) {
  const pts = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    pts.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return pts;
}
const ellipse = (cx, cy, rx, ry = rx) => arcPoints(cx, cy, rx, ry, 0, 360, 72).slice(0, -1);
function roundRect(x, y, w, h, r) {
  const k = Math.min(r, w / 2, h / 2);
  return [
    ...arcPoints(x + w - k, y + k, k, k, -90, 0, 8),
    ...arcPoints(x + w - k, y + h - k, k, k, 0, 90, 8),
    ...arcPoints(x + k, y + h - k, k, k, 90, 180, 8),
    ...arcPoints(x + k, y + k, k, k, 180, 270, 8),
  ];
}
/** A band along an elliptic arc between two radii (a handle, a headband, a rim). */
function arcBand(cx, cy, r, width, from, to, squash = 1) {
  const outer = arcPoints(cx, cy, r + width / 2, (r + width / 2) * squash, from, to, 36);
  const inner = arcPoints(cx, cy, r - width / 2, (r - width / 2) * squash, to, from, 36);
  return [...outer, ...inner];
}
/** A thick straight line with round ends. */
function stroke(x0, y0, x1, y1, width) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len = Math.hypot(dx, dy) || 1;
  const nx = (-dy / len) * (width / 2);
  const ny = (dx / len) * (width / 2);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  return [
    [x0 + nx, y0 + ny],
    ...arcPoints(x0, y0, width / 2, width / 2, angle + 90, angle + 270, 10),
    [x0 - nx, y0 - ny],
    [x1 - nx, y1 - ny],
    ...arcPoints(x1, y1, width / 2, width / 2, angle - 90, angle + 90, 10),
    [x1 + nx, y1 + ny],
  ];
}
/** A path of straight and Bézier segments, flattened: curve(x, y).line(x,y).quad(cx,cy,x,y).cubic(…). */
function curve(x, y) {
  const pts = [[x, y]];
  const api = {
    line(px, py) {
      pts.push([px, py]);
      return api;
    },
    quad(cx, cy, px, py, steps = 16) {
      const [sx, sy] = pts[pts.length - 1];
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        pts.push([u * u * sx + 2 * u * t * cx + t * t * px, u * u * sy + 2 * u * t * cy + t * t * py]);
      }
      return api;
    },
    cubic(c1x, c1y, c2x, c2y, px, py, steps = 20) {
      const [sx, sy] = pts[pts.length - 1];
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        const u = 1 - t;
        pts.push([
          u * u * u * sx + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * px,
          u * u * u * sy + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * py,
        ]);
      }
      return api;
    },
    points: pts,
  };
  return api;
}

// ---------------------------------------------------------------------------------------------
// The kinds of product. Each draws itself in a 100 × 100 box standing on y = 92, in colourway `p`
// ({ main, accent, label }). `focus` is the point the close-up view zooms into.

const STEEL = '#9ca3af';
const DARK = '#1f2937';
const WOOD = '#b7814f';
const WHITE = '#f9fafb';

export const KINDS = {
  // Electronics
  headphones: {
    category: 'Electronics',
    colourways: [
      { label: 'Midnight', main: '#1f2937', accent: '#60a5fa' },
      { label: 'Coral', main: '#f97366', accent: '#fde68a' },
      { label: 'Silver', main: '#cbd5e1', accent: '#334155' },
    ],
    focus: [34, 56],
    draw(c, p) {
      c.fill([arcBand(50, 58, 34, 7, 180, 360)], p.main);
      c.fill([arcBand(50, 58, 34, 2, 200, 340)], shade(p.main, 0.25));
      for (const x of [16, 84]) {
        c.fill([roundRect(x - 8, 52, 16, 30, 7)], shade(p.main, -0.15));
        c.fill([roundRect(x - 6, 55, 12, 24, 6)], p.accent);
        c.fill([roundRect(x - 3, 58, 4, 18, 2)], shade(p.accent, 0.35));
      }
      c.fill([rect(14, 49, 4, 5), rect(82, 49, 4, 5)], STEEL);
    },
  },
  laptop: {
    category: 'Electronics',
    colourways: [
      { label: 'Space Gray', main: '#6b7280', accent: '#38bdf8' },
      { label: 'Silver', main: '#d1d5db', accent: '#a78bfa' },
      { label: 'Graphite', main: '#374151', accent: '#34d399' },
    ],
    focus: [50, 45],
    draw(c, p) {
      c.fill([roundRect(14, 22, 72, 50, 3)], DARK);
      c.fill(
        [rect(17, 25, 66, 43)],
        c.linear(17, 25, 83, 68, [
          [0, p.accent],
          [1, shade(p.accent, -0.55)],
        ]),
      );
      c.fill([rect(22, 31, 26, 3), rect(22, 37, 40, 2), rect(22, 42, 34, 2)], WHITE, { opacity: 0.7 });
      c.fill([roundRect(54, 46, 22, 16, 2)], WHITE, { opacity: 0.25 });
      c.fill(
        [
          [
            [8, 73],
            [92, 73],
            [96, 80],
            [4, 80],
          ],
        ],
        p.main,
      );
      c.fill([rect(4, 80, 92, 3)], shade(p.main, -0.3));
      c.fill([rect(40, 75, 20, 3)], shade(p.main, -0.15));
    },
  },
  smartphone: {
    category: 'Electronics',
    colourways: [
      { label: 'Onyx', main: '#111827', accent: '#f472b6' },
      { label: 'Ocean', main: '#1e3a8a', accent: '#22d3ee' },
      { label: 'Sand', main: '#d6c7a1', accent: '#fb923c' },
    ],
    focus: [50, 40],
    draw(c, p) {
      c.fill([roundRect(30, 8, 40, 84, 8)], p.main);
      c.fill(
        [roundRect(33, 12, 34, 76, 6)],
        c.linear(33, 12, 67, 88, [
          [0, p.accent],
          [1, shade(p.accent, -0.5)],
        ]),
      );
      c.fill([roundRect(44, 14, 12, 3, 1.5)], DARK);
      const colours = ['#fbbf24', '#34d399', '#60a5fa', '#f87171', '#a78bfa', '#f9fafb'];
      let i = 0;
      for (let row = 0; row < 3; row++)
        for (let col = 0; col < 3; col++)
          c.fill([roundRect(37 + col * 9.5, 24 + row * 11, 7, 7, 2)], colours[i++ % colours.length], {
            opacity: 0.9,
          });
      c.fill([roundRect(42, 82, 16, 2, 1)], WHITE, { opacity: 0.8 });
    },
  },
  speaker: {
    category: 'Electronics',
    colourways: [
      { label: 'Charcoal', main: '#374151', accent: '#f59e0b' },
      { label: 'Teal', main: '#0f766e', accent: '#99f6e4' },
      { label: 'Crimson', main: '#b91c1c', accent: '#fecaca' },
    ],
    focus: [50, 40],
    draw(c, p) {
      c.fill([roundRect(26, 12, 48, 80, 10)], p.main);
      c.fill([roundRect(26, 12, 10, 80, 10)], shade(p.main, 0.12));
      for (const [cy, r] of [
        [32, 10],
        [66, 16],
      ]) {
        c.fill([ellipse(50, cy, r + 2)], shade(p.main, -0.35));
        c.fill(
          [ellipse(50, cy, r)],
          c.radial(50, cy, r, [
            [0, shade(p.main, -0.1)],
            [1, shade(p.main, -0.55)],
          ]),
        );
        c.fill([ellipse(50, cy, r * 0.35)], p.accent);
      }
      c.fill([ellipse(50, 18, 1.6)], p.accent);
    },
  },

  // Furniture
  chair: {
    category: 'Furniture',
    colourways: [
      { label: 'Walnut', main: '#8b5a2b', accent: '#d6a86b' },
      { label: 'Sage', main: '#7c9a82', accent: '#c9a27e' },
      { label: 'Mustard', main: '#d4a017', accent: '#6b4226' },
    ],
    focus: [50, 40],
    draw(c, p) {
      const leg = shade(p.accent, -0.35);
      c.fill(
        [
          [
            [33, 62],
            [37, 62],
            [34, 92],
            [30, 92],
          ],
        ],
        leg,
      );
      c.fill(
        [
          [
            [63, 62],
            [67, 62],
            [70, 92],
            [66, 92],
          ],
        ],
        leg,
      );
      c.fill(
        [
          [
            [40, 62],
            [43, 62],
            [43, 86],
            [40, 86],
          ],
        ],
        shade(leg, -0.2),
      );
      c.fill(
        [
          [
            [57, 62],
            [60, 62],
            [60, 86],
            [57, 86],
          ],
        ],
        shade(leg, -0.2),
      );
      c.fill([roundRect(32, 14, 36, 36, 8)], p.main);
      c.fill([roundRect(35, 17, 30, 30, 6)], shade(p.main, 0.12));
      c.fill([rect(47, 48, 6, 8)], leg);
      c.fill([roundRect(26, 54, 48, 10, 4)], shade(p.main, -0.1));
      c.fill([roundRect(26, 54, 48, 5, 3)], shade(p.main, 0.1));
    },
  },
  sofa: {
    category: 'Furniture',
    colourways: [
      { label: 'Navy', main: '#1e3a5f', accent: '#8b5a2b' },
      { label: 'Blush', main: '#e8a0a0', accent: '#5b3a29' },
      { label: 'Olive', main: '#6b7a3a', accent: '#3f2a1c' },
    ],
    focus: [35, 55],
    draw(c, p) {
      c.fill([rect(12, 84, 4, 8), rect(84, 84, 4, 8)], p.accent);
      c.fill([roundRect(14, 34, 72, 36, 8)], shade(p.main, -0.1));
      c.fill([roundRect(8, 58, 84, 28, 6)], p.main);
      c.fill([roundRect(4, 48, 16, 38, 7), roundRect(80, 48, 16, 38, 7)], shade(p.main, 0.08));
      c.fill([roundRect(21, 56, 28, 12, 5), roundRect(51, 56, 28, 12, 5)], shade(p.main, 0.18));
      c.fill([roundRect(22, 38, 26, 20, 6), roundRect(52, 38, 26, 20, 6)], shade(p.main, 0.05));
      c.fill([roundRect(60, 42, 14, 12, 4)], '#f5d0a9', { opacity: 0.9 });
    },
  },
  table: {
    category: 'Furniture',
    colourways: [
      { label: 'Oak', main: '#c8965a', accent: '#2f855a' },
      { label: 'Ebony', main: '#3b2f2f', accent: '#f6ad55' },
      { label: 'White Ash', main: '#e8dcc8', accent: '#3182ce' },
    ],
    focus: [50, 45],
    draw(c, p) {
      const legs = shade(p.main, -0.25);
      c.fill(
        [
          [
            [16, 50],
            [22, 50],
            [20, 92],
            [16, 92],
          ],
        ],
        legs,
      );
      c.fill(
        [
          [
            [78, 50],
            [84, 50],
            [84, 92],
            [80, 92],
          ],
        ],
        legs,
      );
      c.fill(
        [
          [
            [30, 50],
            [34, 50],
            [33, 84],
            [30, 84],
          ],
        ],
        shade(legs, -0.2),
      );
      c.fill(
        [
          [
            [66, 50],
            [70, 50],
            [70, 84],
            [67, 84],
          ],
        ],
        shade(legs, -0.2),
      );
      c.fill([rect(14, 48, 72, 6)], shade(p.main, -0.12));
      c.fill([roundRect(6, 42, 88, 7, 2)], p.main);
      c.fill([rect(8, 42, 84, 2)], shade(p.main, 0.25));
      c.fill(
        [
          [
            [44, 26],
            [56, 26],
            [58, 42],
            [42, 42],
          ],
        ],
        p.accent,
      );
      c.fill([ellipse(50, 26, 6, 1.6)], shade(p.accent, -0.3));
      c.fill([ellipse(47, 17, 5), ellipse(54, 20, 4)], '#68d391');
      c.fill([stroke(50, 26, 48, 18, 1)], '#2f855a');
    },
  },
  bookshelf: {
    category: 'Furniture',
    colourways: [
      { label: 'Pine', main: '#d9a066', accent: '#2b6cb0' },
      { label: 'Espresso', main: '#4a3222', accent: '#dd6b20' },
      { label: 'Birch', main: '#ead7b7', accent: '#805ad5' },
    ],
    focus: [40, 30],
    draw(c, p) {
      c.fill([rect(18, 6, 64, 86)], p.main);
      c.fill([rect(22, 10, 56, 78)], shade(p.main, -0.35));
      const rand = random(7);
      const bookColours = [p.accent, '#e53e3e', '#38a169', '#d69e2e', '#718096', shade(p.accent, 0.4)];
      for (const shelfY of [34, 60, 86]) {
        let x = 23;
        while (x < 70) {
          const w = 3 + Math.floor(rand() * 4);
          const h = 14 + Math.floor(rand() * 8);
          c.fill([rect(x, shelfY - h, w, h)], bookColours[Math.floor(rand() * bookColours.length)]);
          x += w + 0.6;
          if (rand() < 0.12) x += 6;
        }
        c.fill([rect(22, shelfY, 56, 3)], shade(p.main, 0.1));
      }
      c.fill([rect(18, 88, 64, 4)], shade(p.main, -0.15));
    },
  },

  // Home & Garden
  plant: {
    category: 'Home & Garden',
    colourways: [
      { label: 'Terracotta', main: '#c2410c', accent: '#16a34a' },
      { label: 'Stone', main: '#a8a29e', accent: '#15803d' },
      { label: 'Glazed Blue', main: '#1d4ed8', accent: '#22c55e' },
    ],
    focus: [50, 35],
    draw(c, p) {
      const leaf = (x, y, angle, len, colour) => {
        c.save();
        c.rotate(angle, x, y);
        c.fill(
          [
            curve(x, y)
              .quad(x + len * 0.35, y - len * 0.5, x, y - len)
              .quad(x - len * 0.35, y - len * 0.5, x, y).points,
          ],
          colour,
        );
        c.fill([stroke(x, y, x, y - len * 0.85, 0.8)], shade(colour, -0.35));
        c.restore();
      };
      const greens = [p.accent, shade(p.accent, 0.2), shade(p.accent, -0.2)];
      [-50, -28, -10, 8, 26, 46, -38, 36].forEach((angle, i) =>
        leaf(50, 58, angle, 30 + ((i * 7) % 14), greens[i % 3]),
      );
      c.fill(
        [
          [
            [30, 56],
            [70, 56],
            [64, 92],
            [36, 92],
          ],
        ],
        p.main,
      );
      c.fill([rect(28, 54, 44, 7)], shade(p.main, 0.15));
      c.fill(
        [
          [
            [36, 61],
            [42, 61],
            [40, 92],
            [36, 92],
          ],
        ],
        shade(p.main, 0.1),
        { opacity: 0.6 },
      );
    },
  },
  lamp: {
    category: 'Home & Garden',
    colourways: [
      { label: 'Linen', main: '#f5f0e1', accent: '#b7791f' },
      { label: 'Sea Glass', main: '#99d5c9', accent: '#4a5568' },
      { label: 'Saffron', main: '#f6c343', accent: '#2d3748' },
    ],
    focus: [50, 30],
    draw(c, p) {
      c.fill(
        [ellipse(50, 36, 40)],
        c.radial(50, 36, 40, [
          [0, '#fff7cc'],
          [1, '#fff7cc'],
        ]),
        { opacity: 0.35 },
      );
      c.fill([ellipse(50, 89, 16, 4)], shade(p.accent, -0.2));
      c.fill([rect(48, 46, 4, 42)], p.accent);
      c.fill([ellipse(50, 60, 7, 9)], shade(p.accent, 0.15));
      c.fill(
        [
          [
            [32, 12],
            [68, 12],
            [78, 46],
            [22, 46],
          ],
        ],
        p.main,
      );
      c.fill(
        [
          [
            [32, 12],
            [42, 12],
            [36, 46],
            [22, 46],
          ],
        ],
        shade(p.main, 0.3),
        { opacity: 0.7 },
      );
      c.fill([rect(22, 44, 56, 2)], shade(p.main, -0.2));
    },
  },
  wateringCan: {
    category: 'Home & Garden',
    colourways: [
      { label: 'Galvanized', main: '#94a3b8', accent: '#475569' },
      { label: 'Leaf Green', main: '#4d7c0f', accent: '#a3e635' },
      { label: 'Sunflower', main: '#eab308', accent: '#854d0e' },
    ],
    focus: [70, 40],
    draw(c, p) {
      c.fill([stroke(66, 70, 90, 34, 5)], shade(p.main, -0.15));
      c.fill([ellipse(91, 32, 5, 3)], p.accent);
      c.fill([arcBand(44, 44, 16, 5, 180, 360, 0.9)], shade(p.main, -0.2));
      c.fill(
        [
          [
            [24, 46],
            [66, 46],
            [70, 92],
            [20, 92],
          ],
        ],
        p.main,
      );
      c.fill(
        [
          [
            [24, 46],
            [32, 46],
            [28, 92],
            [20, 92],
          ],
        ],
        shade(p.main, 0.25),
        { opacity: 0.7 },
      );
      c.fill([rect(22, 56, 46, 3), rect(21, 80, 48, 3)], shade(p.main, -0.2));
    },
  },
  teapot: {
    category: 'Home & Garden',
    colourways: [
      { label: 'Celadon', main: '#a7c4a0', accent: '#4a6b45' },
      { label: 'Cobalt', main: '#1e40af', accent: '#f8fafc' },
      { label: 'Blush', main: '#f4b6c2', accent: '#9d4a5a' },
    ],
    focus: [50, 45],
    draw(c, p) {
      c.fill([arcBand(76, 60, 11, 5, -90, 90)], shade(p.main, -0.2));
      c.fill(
        [curve(30, 62).quad(16, 58, 10, 40).line(16, 38).quad(20, 54, 34, 56).points],
        shade(p.main, -0.1),
      );
      c.fill([ellipse(50, 64, 28, 24)], p.main);
      c.fill([ellipse(42, 56, 12, 9)], shade(p.main, 0.3), { opacity: 0.6 });
      c.fill([rect(30, 64, 40, 3)], p.accent, { opacity: 0.8 });
      c.fill([ellipse(50, 41, 16, 4)], shade(p.main, -0.15));
      c.fill([ellipse(50, 36, 4, 4)], p.accent);
      c.fill([ellipse(50, 90, 18, 2.5)], shade(p.main, -0.3));
    },
  },

  // Groceries
  fruitBasket: {
    category: 'Groceries',
    colourways: [
      { label: 'Honeycrisp', main: '#dc2626', accent: '#65a30d' },
      { label: 'Granny Smith', main: '#84cc16', accent: '#3f6212' },
      { label: 'Navel Orange', main: '#f97316', accent: '#15803d' },
    ],
    focus: [50, 50],
    draw(c, p) {
      for (const [x, y, r] of [
        [34, 56, 13],
        [64, 56, 13],
        [49, 48, 14],
      ]) {
        c.fill(
          [ellipse(x, y, r)],
          c.radial(x - r * 0.35, y - r * 0.35, r * 1.6, [
            [0, shade(p.main, 0.35)],
            [1, shade(p.main, -0.25)],
          ]),
        );
        c.fill([stroke(x, y - r + 2, x + 1, y - r - 4, 1.5)], '#78350f');
        c.fill(
          [
            curve(x + 1, y - r - 2)
              .quad(x + 8, y - r - 7, x + 10, y - r - 2)
              .quad(x + 5, y - r + 1, x + 1, y - r - 2).points,
          ],
          p.accent,
        );
      }
      c.fill(
        [
          [
            [18, 62],
            [82, 62],
            [74, 92],
            [26, 92],
          ],
        ],
        '#b7814f',
      );
      for (const y of [68, 75, 82]) c.fill([rect(20, y, 60, 1.6)], '#8a5a33');
      for (let x = 26; x < 76; x += 8) c.fill([rect(x, 62, 1.6, 30)], '#8a5a33', { opacity: 0.6 });
      c.fill([rect(16, 60, 68, 4)], '#c98f5c');
    },
  },
  bread: {
    category: 'Groceries',
    colourways: [
      { label: 'Sourdough', main: '#d69e5a', accent: '#f6e3c5' },
      { label: 'Rye', main: '#8b5a2b', accent: '#d8b48a' },
      { label: 'Brioche', main: '#e6a23c', accent: '#fff1cf' },
    ],
    focus: [45, 55],
    draw(c, p) {
      c.fill([roundRect(6, 82, 88, 8, 3)], WOOD);
      c.fill(
        [ellipse(50, 66, 38, 18)],
        c.linear(50, 48, 50, 84, [
          [0, shade(p.main, 0.15)],
          [1, shade(p.main, -0.3)],
        ]),
      );
      for (const x of [32, 46, 60])
        c.fill(
          [
            curve(x, 56)
              .quad(x + 6, 62, x + 8, 74)
              .quad(x + 3, 64, x, 56).points,
          ],
          p.accent,
        );
      c.fill([ellipse(38, 56, 10, 3)], shade(p.main, 0.35), { opacity: 0.5 });
    },
  },
  coffee: {
    category: 'Groceries',
    colourways: [
      { label: 'Dark Roast', main: '#3f2a1d', accent: '#f59e0b' },
      { label: 'Medium Roast', main: '#92400e', accent: '#fef3c7' },
      { label: 'Light Roast', main: '#b45309', accent: '#ecfccb' },
    ],
    focus: [50, 50],
    draw(c, p) {
      c.fill(
        [
          [
            [30, 14],
            [70, 14],
            [74, 24],
            [26, 24],
          ],
        ],
        shade(p.main, -0.2),
      );
      c.fill([rect(26, 24, 48, 68)], p.main);
      c.fill([rect(26, 24, 8, 68)], shade(p.main, 0.15));
      c.fill([roundRect(32, 40, 36, 34, 4)], p.accent);
      c.fill([ellipse(50, 55, 7, 10)], p.main);
      c.fill([curve(50, 46).quad(45, 55, 50, 64).quad(47, 55, 50, 46).points], p.accent);
      c.fill([rect(36, 68, 28, 2)], p.main, { opacity: 0.6 });
      for (const [x, r] of [
        [16, 0],
        [84, 30],
      ]) {
        c.save();
        c.rotate(r, x, 88);
        c.fill([ellipse(x, 88, 4, 5.5)], '#4a2c1a');
        c.fill([stroke(x, 84, x, 92, 0.8)], '#2a1a10');
        c.restore();
      }
    },
  },
  honey: {
    category: 'Groceries',
    colourways: [
      { label: 'Wildflower', main: '#f59e0b', accent: '#fef3c7' },
      { label: 'Clover', main: '#fbbf24', accent: '#ffffff' },
      { label: 'Buckwheat', main: '#92400e', accent: '#fde68a' },
    ],
    focus: [50, 50],
    draw(c, p) {
      c.fill(
        [roundRect(24, 30, 46, 62, 10)],
        c.linear(24, 30, 70, 92, [
          [0, shade(p.main, 0.2)],
          [1, shade(p.main, -0.2)],
        ]),
      );
      c.fill([roundRect(27, 33, 6, 54, 3)], WHITE, { opacity: 0.35 });
      c.fill([roundRect(26, 20, 42, 12, 3)], '#7c2d12');
      c.fill([rect(26, 24, 42, 2)], '#9a3412');
      c.fill([roundRect(30, 52, 34, 22, 3)], p.accent);
      const hexagon = (cx, cy, r) => arcPoints(cx, cy, r, r, 30, 390, 6).slice(0, -1);
      c.fill([hexagon(47, 63, 6)], p.main);
      c.fill([stroke(68, 14, 84, 80, 2.5)], '#a16207');
      c.fill([ellipse(85, 84, 6, 8)], '#ca8a04');
      c.fill([rect(79, 81, 12, 1.4), rect(79, 85, 12, 1.4)], '#854d0e');
    },
  },

  // Clothing
  tshirt: {
    category: 'Clothing',
    colourways: [
      { label: 'Heather Gray', main: '#9ca3af', accent: '#1f2937' },
      { label: 'Indigo', main: '#3730a3', accent: '#fbbf24' },
      { label: 'Tomato', main: '#ef4444', accent: '#fff7ed' },
    ],
    focus: [50, 30],
    draw(c, p) {
      c.fill(
        [
          [
            [36, 12],
            [44, 16],
            [56, 16],
            [64, 12],
            [88, 24],
            [80, 40],
            [72, 36],
            [72, 90],
            [28, 90],
            [28, 36],
            [20, 40],
            [12, 24],
          ],
        ],
        p.main,
      );
      c.fill([arcBand(50, 13, 8, 3, 0, 180)], shade(p.main, -0.25));
      c.fill(
        [
          [
            [12, 24],
            [16, 22],
            [24, 38],
            [20, 40],
          ],
        ],
        shade(p.main, -0.15),
      );
      c.fill(
        [
          [
            [88, 24],
            [84, 22],
            [76, 38],
            [80, 40],
          ],
        ],
        shade(p.main, -0.15),
      );
      c.fill([ellipse(50, 48, 9)], p.accent, { opacity: 0.9 });
      c.fill([ellipse(50, 48, 4.5)], p.main);
    },
  },
  sneaker: {
    category: 'Clothing',
    colourways: [
      { label: 'Cloud White', main: '#f3f4f6', accent: '#2563eb' },
      { label: 'Volt', main: '#a3e635', accent: '#111827' },
      { label: 'Black', main: '#1f2937', accent: '#f43f5e' },
    ],
    focus: [45, 62],
    draw(c, p) {
      c.fill(
        [
          curve(8, 84).line(8, 66).quad(10, 56, 22, 56).line(38, 52).quad(54, 64, 74, 66).quad(94, 70, 94, 84)
            .points,
        ],
        p.main,
      );
      c.fill([roundRect(6, 82, 90, 10, 4)], WHITE);
      c.fill([rect(6, 88, 90, 4)], '#d1d5db');
      c.fill([curve(26, 72).quad(50, 64, 78, 78).quad(50, 70, 26, 76).points], p.accent);
      for (let i = 0; i < 4; i++)
        c.fill([stroke(36 + i * 5, 56 + i * 2, 42 + i * 5, 60 + i * 2, 1.6)], shade(p.main, -0.35));
      c.fill([roundRect(8, 62, 10, 20, 4)], shade(p.main, -0.12));
    },
  },
  beanie: {
    category: 'Clothing',
    colourways: [
      { label: 'Forest', main: '#166534', accent: '#f0fdf4' },
      { label: 'Mustard', main: '#ca8a04', accent: '#fffbeb' },
      { label: 'Plum', main: '#6b21a8', accent: '#faf5ff' },
    ],
    focus: [50, 50],
    draw(c, p) {
      c.fill([ellipse(50, 18, 10)], p.accent);
      c.fill([ellipse(47, 15, 4)], WHITE, { opacity: 0.6 });
      c.fill([curve(18, 70).cubic(16, 30, 84, 30, 82, 70).points], p.main);
      for (let x = 26; x <= 74; x += 8)
        c.fill(
          [
            curve(x, 66)
              .quad(50 + (x - 50) * 0.6, 36, 50 + (x - 50) * 0.3, 30)
              .line(50 + (x - 50) * 0.3 + 0.8, 30)
              .quad(50 + (x - 50) * 0.6 + 1.2, 36, x + 1.6, 66).points,
          ],
          shade(p.main, -0.15),
        );
      c.fill([roundRect(14, 64, 72, 22, 6)], shade(p.main, 0.1));
      for (let x = 18; x < 84; x += 5) c.fill([rect(x, 66, 2, 18)], shade(p.main, -0.12));
    },
  },
  tote: {
    category: 'Clothing',
    colourways: [
      { label: 'Natural Canvas', main: '#e7dcc4', accent: '#1e3a8a' },
      { label: 'Navy', main: '#1e3a8a', accent: '#fde68a' },
      { label: 'Rust', main: '#b45309', accent: '#fef3c7' },
    ],
    focus: [50, 55],
    draw(c, p) {
      c.fill([arcBand(38, 38, 12, 3, 180, 360, 1.3)], shade(p.main, -0.25));
      c.fill([arcBand(62, 38, 12, 3, 180, 360, 1.3)], shade(p.main, -0.25));
      c.fill(
        [
          [
            [22, 36],
            [78, 36],
            [82, 92],
            [18, 92],
          ],
        ],
        p.main,
      );
      c.fill([rect(20, 36, 60, 5)], shade(p.main, -0.1));
      c.fill([ellipse(50, 64, 13)], p.accent);
      c.fill([curve(42, 66).quad(50, 54, 58, 66).quad(50, 60, 42, 66).points], p.main);
    },
  },

  // Tools & Hardware
  hammer: {
    category: 'Tools & Hardware',
    colourways: [
      { label: 'Hickory', main: '#b7791f', accent: '#6b7280' },
      { label: 'Fiberglass', main: '#facc15', accent: '#374151' },
      { label: 'Red Grip', main: '#dc2626', accent: '#4b5563' },
    ],
    focus: [36, 32],
    draw(c, p) {
      c.save();
      c.rotate(-35, 50, 55);
      c.fill([roundRect(46, 28, 8, 66, 3)], p.main);
      c.fill([roundRect(45, 66, 10, 28, 4)], shade(p.main, -0.25));
      c.fill(
        [curve(30, 16).line(62, 16).line(74, 20).line(74, 26).line(62, 30).line(30, 30).points],
        p.accent,
      );
      c.fill([curve(30, 16).line(22, 12).quad(18, 20, 24, 30).line(30, 30).points], shade(p.accent, -0.2));
      c.fill([rect(32, 17, 28, 3)], shade(p.accent, 0.35));
      c.restore();
    },
  },
  wrench: {
    category: 'Tools & Hardware',
    colourways: [
      { label: 'Chrome', main: '#cbd5e1', accent: '#1d4ed8' },
      { label: 'Black Oxide', main: '#374151', accent: '#f97316' },
      { label: 'Satin', main: '#a8a29e', accent: '#dc2626' },
    ],
    focus: [68, 30],
    draw(c, p) {
      c.save();
      c.rotate(45, 50, 50);
      c.fill([roundRect(44, 22, 12, 58, 5)], p.main);
      c.fill([rect(46, 26, 3, 50)], shade(p.main, 0.35));
      c.fill([ellipse(50, 16, 14), ellipse(50, 16, 6), rect(45, 0, 10, 16)], p.main, { rule: 'evenodd' });
      c.fill([ellipse(50, 86, 11), ellipse(50, 86, 6)], p.main, { rule: 'evenodd' });
      c.fill([roundRect(45, 44, 10, 20, 3)], p.accent);
      c.restore();
    },
  },
  drill: {
    category: 'Tools & Hardware',
    colourways: [
      { label: 'Contractor Yellow', main: '#facc15', accent: '#111827' },
      { label: 'Teal', main: '#0d9488', accent: '#1f2937' },
      { label: 'Red', main: '#dc2626', accent: '#111827' },
    ],
    focus: [30, 35],
    draw(c, p) {
      c.fill([rect(2, 32, 14, 3)], STEEL);
      c.fill([roundRect(14, 28, 10, 11, 2)], '#4b5563');
      c.fill([roundRect(22, 22, 52, 24, 10)], p.main);
      c.fill([roundRect(60, 24, 14, 20, 6)], p.accent);
      c.fill(
        [
          [
            [44, 44],
            [62, 44],
            [58, 78],
            [42, 78],
          ],
        ],
        p.accent,
      );
      c.fill([rect(40, 46, 4, 8)], shade(p.main, -0.2));
      c.fill([roundRect(32, 76, 38, 16, 4)], p.main);
      c.fill([rect(34, 80, 34, 2)], p.accent, { opacity: 0.7 });
      c.fill([roundRect(26, 26, 24, 4, 2)], WHITE, { opacity: 0.35 });
    },
  },
  toolbox: {
    category: 'Tools & Hardware',
    colourways: [
      { label: 'Red Steel', main: '#dc2626', accent: '#e5e7eb' },
      { label: 'Blue Steel', main: '#1d4ed8', accent: '#e5e7eb' },
      { label: 'Black', main: '#1f2937', accent: '#fbbf24' },
    ],
    focus: [50, 45],
    draw(c, p) {
      c.fill([arcBand(50, 34, 14, 4, 180, 360, 0.7)], '#4b5563');
      c.fill([rect(10, 46, 80, 46)], p.main);
      c.fill(
        [
          [
            [14, 34],
            [86, 34],
            [90, 48],
            [10, 48],
          ],
        ],
        shade(p.main, 0.12),
      );
      c.fill([rect(10, 48, 80, 3)], shade(p.main, -0.3));
      c.fill([roundRect(22, 50, 8, 10, 2), roundRect(70, 50, 8, 10, 2)], p.accent);
      c.fill([rect(10, 70, 80, 2)], shade(p.main, -0.2));
      c.fill([rect(12, 36, 30, 2)], WHITE, { opacity: 0.35 });
    },
  },

  // Sports & Outdoors
  bicycle: {
    category: 'Sports & Outdoors',
    colourways: [
      { label: 'Racing Red', main: '#dc2626', accent: '#111827' },
      { label: 'Mint', main: '#34d399', accent: '#1f2937' },
      { label: 'Cobalt', main: '#2563eb', accent: '#111827' },
    ],
    focus: [50, 50],
    draw(c, p) {
      for (const x of [24, 76]) {
        c.fill([ellipse(x, 70, 20), ellipse(x, 70, 16.5)], p.accent, { rule: 'evenodd' });
        for (let a = 0; a < 180; a += 30) {
          const r = (a * Math.PI) / 180;
          c.fill(
            [
              stroke(
                x - Math.cos(r) * 16,
                70 - Math.sin(r) * 16,
                x + Math.cos(r) * 16,
                70 + Math.sin(r) * 16,
                0.6,
              ),
            ],
            STEEL,
          );
        }
        c.fill([ellipse(x, 70, 2.5)], STEEL);
      }
      const frame = (x0, y0, x1, y1) => c.fill([stroke(x0, y0, x1, y1, 3.2)], p.main);
      frame(24, 70, 46, 70);
      frame(46, 70, 38, 44);
      frame(24, 70, 38, 44);
      frame(38, 44, 68, 44);
      frame(46, 70, 68, 44);
      frame(68, 44, 76, 70);
      frame(68, 44, 66, 34);
      c.fill([stroke(60, 32, 72, 34, 2.4)], p.accent);
      c.fill([stroke(38, 44, 36, 36, 2.4)], STEEL);
      c.fill([roundRect(28, 32, 16, 5, 2.5)], p.accent);
      c.fill([ellipse(46, 70, 4)], STEEL);
    },
  },
  tent: {
    category: 'Sports & Outdoors',
    colourways: [
      { label: 'Alpine Orange', main: '#f97316', accent: '#7c2d12' },
      { label: 'Forest Green', main: '#15803d', accent: '#052e16' },
      { label: 'Sky Blue', main: '#0ea5e9', accent: '#0c4a6e' },
    ],
    focus: [50, 55],
    draw(c, p) {
      c.fill(
        [
          [
            [50, 16],
            [92, 90],
            [8, 90],
          ],
        ],
        p.main,
      );
      c.fill(
        [
          [
            [50, 16],
            [92, 90],
            [62, 90],
          ],
        ],
        shade(p.main, -0.2),
      );
      c.fill(
        [
          [
            [50, 40],
            [62, 90],
            [38, 90],
          ],
        ],
        p.accent,
      );
      c.fill(
        [
          [
            [50, 40],
            [56, 90],
            [50, 90],
          ],
        ],
        shade(p.accent, 0.25),
      );
      c.fill([stroke(50, 16, 50, 8, 1.4)], '#374151');
      c.fill(
        [
          [
            [50, 8],
            [60, 11],
            [50, 14],
          ],
        ],
        '#facc15',
      );
      c.fill([stroke(8, 90, 2, 92, 1), stroke(92, 90, 98, 92, 1)], '#374151');
      c.fill([rect(4, 90, 92, 2)], '#65a30d', { opacity: 0.7 });
    },
  },
  ball: {
    category: 'Sports & Outdoors',
    colourways: [
      { label: 'Classic Orange', main: '#ea580c', accent: '#1f2937' },
      { label: 'Court Blue', main: '#2563eb', accent: '#fde047' },
      { label: 'Street Red', main: '#dc2626', accent: '#111827' },
    ],
    focus: [40, 40],
    draw(c, p) {
      c.fill(
        [ellipse(50, 54, 36)],
        c.radial(38, 42, 52, [
          [0, shade(p.main, 0.25)],
          [1, shade(p.main, -0.35)],
        ]),
      );
      c.fill([rect(14, 53, 72, 2)], p.accent);
      c.fill([rect(49, 18, 2, 72)], p.accent);
      c.fill([arcBand(14, 54, 26, 2, -55, 55)], p.accent);
      c.fill([arcBand(86, 54, 26, 2, 125, 235)], p.accent);
      c.fill([ellipse(38, 38, 8, 5)], WHITE, { opacity: 0.25 });
    },
  },
  backpack: {
    category: 'Sports & Outdoors',
    colourways: [
      { label: 'Trail Green', main: '#4d7c0f', accent: '#f59e0b' },
      { label: 'Glacier', main: '#0891b2', accent: '#f1f5f9' },
      { label: 'Crimson', main: '#b91c1c', accent: '#1f2937' },
    ],
    focus: [50, 50],
    draw(c, p) {
      c.fill([arcBand(50, 22, 9, 3, 180, 360)], shade(p.main, -0.3));
      c.fill([roundRect(24, 20, 52, 72, 14)], p.main);
      c.fill(
        [curve(24, 42).quad(24, 20, 50, 20).quad(76, 20, 76, 42).line(76, 46).line(24, 46).points],
        shade(p.main, 0.12),
      );
      c.fill([rect(46, 40, 8, 10)], p.accent);
      c.fill([roundRect(32, 58, 36, 26, 6)], shade(p.main, -0.12));
      c.fill([rect(32, 62, 36, 2)], p.accent);
      c.fill([rect(30, 46, 2, 40), rect(68, 46, 2, 40)], shade(p.main, -0.25));
    },
  },

  // Building Materials
  bricks: {
    category: 'Building Materials',
    colourways: [
      { label: 'Classic Red', main: '#b91c1c', accent: '#e7e5e4' },
      { label: 'Cream', main: '#e7d3a8', accent: '#a8a29e' },
      { label: 'Charcoal', main: '#4b5563', accent: '#d6d3d1' },
    ],
    focus: [40, 50],
    draw(c, p) {
      c.fill([rect(8, 24, 84, 68)], p.accent);
      const rand = random(11);
      for (let row = 0; row < 6; row++) {
        const y = 25 + row * 11.2;
        const offset = row % 2 ? -10 : 0;
        for (let x = 9 + offset; x < 92; x += 20.5) {
          const x0 = Math.max(9, x);
          const x1 = Math.min(91, x + 19.5);
          if (x1 - x0 < 2) continue;
          c.fill([rect(x0, y, x1 - x0, 10)], shade(p.main, (rand() - 0.5) * 0.25));
          c.fill([rect(x0, y, x1 - x0, 2)], shade(p.main, 0.2), { opacity: 0.5 });
        }
      }
    },
  },
  lumber: {
    category: 'Building Materials',
    colourways: [
      { label: 'Pine', main: '#e9c58f', accent: '#b7814f' },
      { label: 'Cedar', main: '#c26a3d', accent: '#8a3f1e' },
      { label: 'Douglas Fir', main: '#d9a066', accent: '#9c6233' },
    ],
    focus: [30, 60],
    draw(c, p) {
      const rows = [
        [0, 76],
        [0, 60],
        [8, 44],
      ];
      for (const [shift, y] of rows) {
        for (let i = 0; i < 3 - (y < 50 ? 1 : 0); i++) {
          const x = 8 + shift + i * 15;
          c.fill([rect(x + 12, y + 1, 72 - shift - i * 6, 14)], shade(p.main, -0.1));
          c.fill([rect(x + 12, y + 1, 72 - shift - i * 6, 3)], shade(p.main, 0.2));
          c.fill([rect(x, y, 14, 16)], p.main);
          for (const r of [5, 3, 1.4])
            c.fill([ellipse(x + 7, y + 8, r, r * 0.9)], p.accent, { opacity: 0.35 });
        }
      }
    },
  },
  paintCan: {
    category: 'Building Materials',
    colourways: [
      { label: 'Ocean Blue', main: '#2563eb', accent: '#e5e7eb' },
      { label: 'Sunset Coral', main: '#fb7185', accent: '#e5e7eb' },
      { label: 'Meadow Green', main: '#22c55e', accent: '#e5e7eb' },
    ],
    focus: [50, 35],
    draw(c, p) {
      c.fill([arcBand(50, 30, 24, 1.6, 180, 360, 0.8)], '#6b7280');
      c.fill(
        [rect(22, 30, 56, 58)],
        c.linear(22, 0, 78, 0, [
          [0, '#d1d5db'],
          [0.35, '#f3f4f6'],
          [1, '#9ca3af'],
        ]),
      );
      c.fill([ellipse(50, 88, 28, 5)], '#9ca3af');
      c.fill([rect(22, 44, 56, 30)], p.main);
      c.fill([ellipse(50, 30, 28, 6)], '#d1d5db');
      c.fill([ellipse(50, 30, 24, 4.5)], p.main);
      c.fill([curve(30, 32).line(36, 32).line(36, 50).quad(33, 56, 30, 50).points], p.main);
      c.fill([ellipse(50, 59, 8)], WHITE, { opacity: 0.85 });
      c.fill([ellipse(50, 59, 5)], p.main);
    },
  },
  cementBag: {
    category: 'Building Materials',
    colourways: [
      { label: 'Portland Gray', main: '#d6d3d1', accent: '#1d4ed8' },
      { label: 'Quick-Set', main: '#e7e5e4', accent: '#dc2626' },
      { label: 'Mortar Mix', main: '#d6c7a1', accent: '#15803d' },
    ],
    focus: [50, 55],
    draw(c, p) {
      c.fill([curve(18, 30).quad(50, 22, 82, 30).line(86, 88).quad(50, 94, 14, 88).points], p.main);
      c.fill(
        [curve(18, 30).quad(50, 22, 82, 30).line(82, 36).quad(50, 30, 18, 36).points],
        shade(p.main, -0.12),
      );
      c.fill([rect(20, 48, 60, 18)], p.accent);
      c.fill([rect(26, 54, 30, 3), rect(26, 59, 20, 2)], WHITE, { opacity: 0.9 });
      c.fill([ellipse(68, 57, 6)], WHITE, { opacity: 0.9 });
      c.fill([rect(18, 72, 64, 2)], shade(p.main, -0.2));
    },
  },

  // Books
  book: {
    category: 'Books',
    colourways: [
      { label: 'Crimson', main: '#9f1239', accent: '#fcd34d' },
      { label: 'Emerald', main: '#065f46', accent: '#fef3c7' },
      { label: 'Midnight', main: '#1e1b4b', accent: '#a5b4fc' },
    ],
    focus: [50, 35],
    draw(c, p) {
      c.fill(
        [
          [
            [30, 10],
            [76, 10],
            [80, 14],
            [80, 92],
            [34, 92],
            [30, 88],
          ],
        ],
        '#f5f0e1',
      );
      c.fill([rect(24, 8, 50, 82)], p.main);
      c.fill([rect(24, 8, 6, 82)], shade(p.main, -0.3));
      c.fill([rect(36, 22, 30, 3), rect(40, 28, 22, 2)], p.accent);
      c.fill([ellipse(51, 52, 10), ellipse(51, 52, 8)], p.accent, { rule: 'evenodd' });
      c.fill(
        [
          [
            [51, 46],
            [56, 56],
            [46, 56],
          ],
        ],
        p.accent,
      );
      c.fill([rect(38, 74, 26, 2)], p.accent, { opacity: 0.8 });
    },
  },
  bookStack: {
    category: 'Books',
    colourways: [
      { label: 'Autumn', main: '#c2410c', accent: '#365314' },
      { label: 'Ocean', main: '#0e7490', accent: '#1e3a8a' },
      { label: 'Vintage', main: '#7c2d12', accent: '#a16207' },
    ],
    focus: [50, 50],
    draw(c, p) {
      const books = [
        [14, 78, 74, 14, p.main],
        [20, 64, 62, 14, p.accent],
        [10, 52, 70, 12, shade(p.main, 0.3)],
        [24, 38, 56, 14, shade(p.accent, 0.3)],
      ];
      for (const [x, y, w, h, colour] of books) {
        c.fill([rect(x, y, w, h)], colour);
        c.fill([rect(x + w - 4, y + 2, 4, h - 4)], '#f5f0e1');
        c.fill([rect(x + 6, y + h / 2 - 1, 20, 2)], WHITE, { opacity: 0.6 });
      }
      c.fill([ellipse(66, 30, 7, 6)], '#f3f4f6');
      c.fill([arcBand(74, 30, 3, 1.4, -90, 90)], '#f3f4f6');
      c.fill([ellipse(66, 25, 6, 1.6)], '#78350f');
    },
  },
  openBook: {
    category: 'Books',
    colourways: [
      { label: 'Linen', main: '#7c2d12', accent: '#fdf6e3' },
      { label: 'Navy', main: '#1e3a8a', accent: '#fffbeb' },
      { label: 'Forest', main: '#14532d', accent: '#f7fee7' },
    ],
    focus: [30, 50],
    draw(c, p) {
      c.fill([curve(4, 40).quad(28, 30, 50, 40).line(96, 40).line(96, 82).line(4, 82).points], p.main);
      c.fill([curve(8, 36).quad(30, 28, 50, 38).line(50, 80).quad(30, 70, 8, 78).points], p.accent);
      c.fill(
        [curve(92, 36).quad(70, 28, 50, 38).line(50, 80).quad(70, 70, 92, 78).points],
        shade(p.accent, -0.05),
      );
      for (let i = 0; i < 6; i++) {
        c.fill([rect(14, 44 + i * 5, 30, 1.4)], '#9ca3af');
        c.fill([rect(56, 44 + i * 5, 30, 1.4)], '#9ca3af');
      }
      c.fill([rect(49, 38, 2, 42)], shade(p.accent, -0.25));
      c.fill(
        [
          [
            [66, 38],
            [70, 38],
            [70, 92],
            [68, 88],
            [66, 92],
          ],
        ],
        '#dc2626',
      );
    },
  },
  journal: {
    category: 'Books',
    colourways: [
      { label: 'Black Leather', main: '#1f2937', accent: '#dc2626' },
      { label: 'Tan Leather', main: '#a16207', accent: '#1f2937' },
      { label: 'Sage Cloth', main: '#6b8f71', accent: '#f59e0b' },
    ],
    focus: [60, 40],
    draw(c, p) {
      c.fill([roundRect(28, 10, 48, 80, 5)], '#f5f0e1');
      c.fill([roundRect(24, 8, 48, 82, 5)], p.main);
      c.fill([rect(62, 8, 3, 82)], p.accent);
      c.fill(
        [
          [
            [40, 86],
            [46, 86],
            [46, 98],
            [43, 95],
            [40, 98],
          ],
        ],
        p.accent,
      );
      c.fill([rect(24, 14, 4, 70)], shade(p.main, 0.15), { opacity: 0.6 });
      c.fill([roundRect(34, 28, 20, 10, 2)], shade(p.main, 0.25), { opacity: 0.5 });
    },
  },

  // Toys & Games
  teddyBear: {
    category: 'Toys & Games',
    colourways: [
      { label: 'Honey', main: '#c68642', accent: '#f1d3a8' },
      { label: 'Cocoa', main: '#6b4226', accent: '#d6b38a' },
      { label: 'Cream', main: '#eadbc8', accent: '#f9f1e7' },
    ],
    focus: [50, 32],
    draw(c, p) {
      const dark = shade(p.main, -0.3);
      c.fill([ellipse(30, 84, 10, 8), ellipse(70, 84, 10, 8)], p.main);
      c.fill([ellipse(30, 86, 6, 4.5), ellipse(70, 86, 6, 4.5)], p.accent);
      c.fill([ellipse(50, 68, 22, 22)], p.main);
      c.fill([ellipse(50, 70, 13, 14)], p.accent);
      c.fill([ellipse(26, 60, 7, 12), ellipse(74, 60, 7, 12)], shade(p.main, -0.08));
      c.fill([ellipse(32, 16, 8), ellipse(68, 16, 8)], p.main);
      c.fill([ellipse(32, 16, 4.5), ellipse(68, 16, 4.5)], p.accent);
      c.fill([ellipse(50, 32, 20, 18)], p.main);
      c.fill([ellipse(50, 38, 9, 7)], p.accent);
      c.fill([ellipse(50, 35, 3, 2.2)], DARK);
      c.fill([ellipse(42, 27, 2.2), ellipse(58, 27, 2.2)], DARK);
      c.fill([curve(46, 41).quad(50, 44, 54, 41).line(54, 42).quad(50, 45.5, 46, 42).points], dark);
      c.fill([curve(40, 50).line(60, 50).line(54, 56).line(46, 56).points], '#dc2626');
    },
  },
  blocks: {
    category: 'Toys & Games',
    colourways: [
      { label: 'Primary', main: '#ef4444', accent: '#3b82f6' },
      { label: 'Pastel', main: '#f9a8d4', accent: '#93c5fd' },
      { label: 'Natural Wood', main: '#d6a86b', accent: '#8b5a2b' },
    ],
    focus: [40, 60],
    draw(c, p) {
      const cube = (x, y, s, colour, mark) => {
        c.fill(
          [
            [
              [x, y],
              [x + s * 0.3, y - s * 0.25],
              [x + s * 1.3, y - s * 0.25],
              [x + s, y],
            ],
          ],
          shade(colour, 0.3),
        );
        c.fill(
          [
            [
              [x + s, y],
              [x + s * 1.3, y - s * 0.25],
              [x + s * 1.3, y + s * 0.75],
              [x + s, y + s],
            ],
          ],
          shade(colour, -0.25),
        );
        c.fill([rect(x, y, s, s)], colour);
        c.fill([rect(x + 2, y + 2, s - 4, s - 4)], WHITE, { opacity: 0.25 });
        mark(x + s / 2, y + s / 2, s * 0.28);
      };
      const circle = (x, y, r) => c.fill([ellipse(x, y, r)], WHITE);
      const triangle = (x, y, r) =>
        c.fill(
          [
            [
              [x, y - r],
              [x + r, y + r * 0.8],
              [x - r, y + r * 0.8],
            ],
          ],
          WHITE,
        );
      const square = (x, y, r) => c.fill([rect(x - r, y - r, 2 * r, 2 * r)], WHITE);
      cube(8, 62, 30, p.main, circle);
      cube(44, 62, 30, p.accent, triangle);
      cube(26, 32, 30, '#facc15', square);
      cube(66, 78, 14, '#22c55e', circle);
    },
  },
  kite: {
    category: 'Toys & Games',
    colourways: [
      { label: 'Rainbow', main: '#ef4444', accent: '#3b82f6' },
      { label: 'Sunshine', main: '#f59e0b', accent: '#10b981' },
      { label: 'Berry', main: '#a21caf', accent: '#f472b6' },
    ],
    focus: [45, 30],
    draw(c, p) {
      c.fill(
        [
          curve(44, 62)
            .quad(40, 76, 52, 82)
            .quad(66, 88, 60, 96)
            .line(61, 96)
            .quad(67, 88, 53, 81)
            .quad(42, 75, 46, 62).points,
        ],
        '#374151',
      );
      for (const [x, y] of [
        [44, 72],
        [56, 84],
      ])
        c.fill(
          [
            [
              [x - 5, y - 3],
              [x, y],
              [x - 5, y + 3],
            ],
            [
              [x + 5, y - 3],
              [x, y],
              [x + 5, y + 3],
            ],
          ],
          p.accent,
        );
      c.fill(
        [
          [
            [45, 6],
            [72, 30],
            [45, 62],
            [18, 30],
          ],
        ],
        p.main,
      );
      c.fill(
        [
          [
            [45, 6],
            [72, 30],
            [45, 30],
          ],
        ],
        p.accent,
      );
      c.fill(
        [
          [
            [45, 30],
            [18, 30],
            [45, 62],
          ],
        ],
        shade(p.accent, 0.3),
      );
      c.fill([stroke(45, 6, 45, 62, 0.8), stroke(18, 30, 72, 30, 0.8)], '#374151');
      c.fill([stroke(72, 30, 92, 92, 0.5)], '#6b7280');
    },
  },
  dice: {
    category: 'Toys & Games',
    colourways: [
      { label: 'Ivory', main: '#f8fafc', accent: '#111827' },
      { label: 'Ruby', main: '#dc2626', accent: '#fefce8' },
      { label: 'Jade', main: '#059669', accent: '#fefce8' },
    ],
    focus: [35, 60],
    draw(c, p) {
      const die = (x, y, s, pips, angle) => {
        c.save();
        c.rotate(angle, x + s / 2, y + s / 2);
        c.fill([roundRect(x + 3, y + 3, s, s, 6)], shade(p.main, -0.3));
        c.fill([roundRect(x, y, s, s, 6)], p.main);
        const q = s / 4;
        const spots = {
          3: [
            [1, 1],
            [2, 2],
            [3, 3],
          ],
          5: [
            [1, 1],
            [3, 1],
            [2, 2],
            [1, 3],
            [3, 3],
          ],
          6: [
            [1, 1],
            [3, 1],
            [1, 2],
            [3, 2],
            [1, 3],
            [3, 3],
          ],
        }[pips];
        for (const [i, j] of spots) c.fill([ellipse(x + i * q, y + j * q, s * 0.08)], p.accent);
        c.restore();
      };
      die(12, 50, 36, 5, -12);
      die(54, 56, 32, 3, 14);
      die(34, 18, 28, 6, 6);
    },
  },
};

// ---------------------------------------------------------------------------------------------
// Scenes

const BACKDROPS = {
  Electronics: ['#e0ecff', '#b9d3fb'],
  Furniture: ['#fdf0e2', '#f3d3b0'],
  'Home & Garden': ['#e3f8e9', '#b7e8c6'],
  Groceries: ['#fff7dc', '#fbe39a'],
  Clothing: ['#fdeef6', '#f6c6de'],
  'Tools & Hardware': ['#eef0f3', '#cfd4db'],
  'Sports & Outdoors': ['#dcf8fb', '#a9e7f0'],
  'Building Materials': ['#f7ecdf', '#e4cdb0'],
  Books: ['#f0ecff', '#d6cdfb'],
  'Toys & Games': ['#fff1e3', '#fcd0a4'],
};

function studio(c, kind, colourway, seed) {
  const [top, bottom] = BACKDROPS[kind.category];
  c.fill(
    [rect(0, 0, WIDTH, HEIGHT)],
    c.linear(0, 0, 0, HEIGHT, [
      [0, top],
      [1, bottom],
    ]),
  );
  // A soft light behind the product, a little off centre (left or right by the seed).
  c.fill([ellipse(seed % 2 ? 170 : 230, 130, 118)], WHITE, { opacity: 0.22 });
  c.fill([ellipse(200, 258, 120, 11)], shade(bottom, -0.45), { opacity: 0.25 });
  c.save();
  c.translate(75, 45);
  c.scale(2.5);
  c.translate(0, -8);
  kind.draw(c, colourway);
  c.restore();
}

function onTable(c, kind, colourway) {
  const [top] = BACKDROPS[kind.category];
  c.fill(
    [rect(0, 0, WIDTH, 215)],
    c.linear(0, 0, 0, 215, [
      [0, shade(top, 0.5)],
      [1, shade(top, -0.05)],
    ]),
  );
  // A framed picture and a window on the wall.
  c.fill([rect(36, 36, 70, 54)], '#ffffff');
  c.fill(
    [rect(42, 42, 58, 42)],
    c.linear(42, 42, 100, 84, [
      [0, shade(colourway.main, 0.55)],
      [1, shade(colourway.main, 0.2)],
    ]),
  );
  c.fill([ellipse(84, 54, 6)], '#fff7cc', { opacity: 0.9 });
  c.fill(
    [
      [
        [42, 84],
        [62, 62],
        [78, 76],
        [88, 68],
        [100, 84],
      ],
    ],
    shade(colourway.main, -0.1),
    { opacity: 0.6 },
  );
  c.fill([rect(300, 24, 76, 100)], '#ffffff');
  c.fill(
    [rect(306, 30, 30, 40), rect(340, 30, 30, 40), rect(306, 74, 30, 44), rect(340, 74, 30, 44)],
    '#cfe8ff',
  );
  c.fill(
    [rect(0, 215, WIDTH, HEIGHT - 215)],
    c.linear(0, 215, 0, HEIGHT, [
      [0, '#c9955f'],
      [1, '#8f6238'],
    ]),
  );
  c.fill([rect(0, 213, WIDTH, 4)], '#e2b47e');
  for (const y of [240, 268]) c.fill([rect(0, y, WIDTH, 1)], '#7a5230', { opacity: 0.35 });
  c.fill([ellipse(200, 232, 80, 7)], '#3b2414', { opacity: 0.3 });
  c.save();
  // Mirrored, smaller, standing on the table's front edge.
  c.translate(200 + 85, 232 - 92 * 1.7);
  c.scale(-1.7, 1.7);
  kind.draw(c, colourway);
  c.restore();
}

function closeUp(c, kind, colourway) {
  const [top, bottom] = BACKDROPS[kind.category];
  c.fill(
    [rect(0, 0, WIDTH, HEIGHT)],
    c.linear(0, 0, 0, HEIGHT, [
      [0, shade(top, 0.4)],
      [1, bottom],
    ]),
  );
  const [fx, fy] = kind.focus ?? [50, 50];
  const zoom = 5.2;
  c.save();
  c.translate(200 - fx * zoom, 150 - fy * zoom);
  c.scale(zoom);
  kind.draw(c, colourway);
  c.restore();
}

export const VIEWS = { studio, table: onTable, closeup: closeUp };

// ---------------------------------------------------------------------------------------------
// PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/**
 * Reduces an RGB image to at most 256 colours by median cut (exact when it has no more), so it can
 * be written as an indexed PNG: a third of the bytes before compression. Flat illustrations lose
 * nothing visible; only anti-aliased edges over gradients have more colours than that.
 */
function quantise(rgbBytes) {
  const counts = new Map();
  for (let i = 0; i < rgbBytes.length; i += 3) {
    const key = (rgbBytes[i] << 16) | (rgbBytes[i + 1] << 8) | rgbBytes[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const colours = [...counts].map(([key, n]) => [(key >> 16) & 255, (key >> 8) & 255, key & 255, n, key]);
  let boxes = [colours];
  while (boxes.length < 256) {
    // Split the box whose widest channel range, weighted by its pixels, is largest.
    let pick = -1;
    let pickScore = 0;
    let pickChannel = 0;
    boxes.forEach((box, index) => {
      if (box.length < 2) return;
      let pixels = 0;
      for (const c of box) pixels += c[3];
      for (let ch = 0; ch < 3; ch++) {
        let lo = 255;
        let hi = 0;
        for (const c of box) {
          lo = Math.min(lo, c[ch]);
          hi = Math.max(hi, c[ch]);
        }
        const score = (hi - lo) * Math.sqrt(pixels);
        if (score > pickScore) {
          pickScore = score;
          pick = index;
          pickChannel = ch;
        }
      }
    });
    if (pick < 0) break;
    const box = boxes[pick].sort((a, b) => a[pickChannel] - b[pickChannel] || a[4] - b[4]);
    const total = box.reduce((n, c) => n + c[3], 0);
    let seen = 0;
    let cut = 1;
    for (let i = 0; i < box.length - 1; i++) {
      seen += box[i][3];
      cut = i + 1;
      if (seen >= total / 2) break;
    }
    boxes = [...boxes.slice(0, pick), box.slice(0, cut), box.slice(cut), ...boxes.slice(pick + 1)];
  }
  const palette = [];
  const indexOf = new Map();
  boxes.forEach((box, index) => {
    let n = 0;
    const sum = [0, 0, 0];
    for (const c of box) {
      for (let ch = 0; ch < 3; ch++) sum[ch] += c[ch] * c[3];
      n += c[3];
      indexOf.set(c[4], index);
    }
    palette.push(sum.map((v) => Math.round(v / n)));
  });
  const indices = new Uint8Array(rgbBytes.length / 3);
  for (let i = 0; i < indices.length; i++)
    indices[i] = indexOf.get((rgbBytes[i * 3] << 16) | (rgbBytes[i * 3 + 1] << 8) | rgbBytes[i * 3 + 2]);
  return { palette, indices };
}

/**
 * An indexed PNG (8-bit palette). Rows are filtered either all with one filter or each with the
 * filter of the smallest sum of absolute values; whichever deflates smallest is kept.
 */
export function encodePng(width, height, rgbBytes) {
  const { palette, indices } = quantise(rgbBytes);
  let best = null;
  for (const strategy of ['adaptive', 0, 1, 2]) {
    const data = zlib.deflateSync(filterRows(width, height, indices, 1, strategy), { level: 9, memLevel: 9 });
    if (!best || data.length < best.length) best = data;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // indexed colour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', best),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function filterRows(width, height, bytes, bpp, strategy) {
  const stride = width * bpp;
  const raw = Buffer.alloc((stride + 1) * height);
  const candidate = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = bytes.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? bytes.subarray((y - 1) * stride, y * stride) : null;
    let best = null;
    let bestScore = Infinity;
    for (const filter of strategy === 'adaptive' ? [0, 1, 2, 3, 4] : [strategy]) {
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? row[i - bpp] : 0;
        const b = up ? up[i] : 0;
        const c = up && i >= bpp ? up[i - bpp] : 0;
        let predicted = 0;
        if (filter === 1) predicted = a;
        else if (filter === 2) predicted = b;
        else if (filter === 3) predicted = (a + b) >> 1;
        else if (filter === 4) {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        }
        const value = (row[i] - predicted) & 255;
        candidate[i] = value;
        score += value < 128 ? value : 256 - value;
      }
      if (score < bestScore) {
        bestScore = score;
        best = [filter, Buffer.from(candidate)];
      }
    }
    raw[y * (stride + 1)] = best[0];
    best[1].copy(raw, y * (stride + 1) + 1);
  }
  return raw;
}

// ---------------------------------------------------------------------------------------------

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');
const kebab = (text) => text.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  for (const file of fs.readdirSync(OUT)) if (file.endsWith('.png')) fs.rmSync(path.join(OUT, file));
  const manifest = { width: WIDTH, height: HEIGHT, views: Object.keys(VIEWS), kinds: {} };
  let total = 0;
  let seed = 1;
  for (const [key, kind] of Object.entries(KINDS)) {
    const entry = { category: kind.category, colourways: [] };
    for (const colourway of kind.colourways) {
      const files = [];
      for (const [view, render] of Object.entries(VIEWS)) {
        const canvas = new Canvas(WIDTH, HEIGHT);
        render(canvas, kind, colourway, seed++);
        const png = encodePng(WIDTH, HEIGHT, canvas.toRgbBytes());
        const file = `${kebab(key)}-${slug(colourway.label)}-${view}.png`;
        fs.writeFileSync(path.join(OUT, file), png);
        files.push(file);
        total += png.length;
      }
      entry.colourways.push({ label: colourway.label, files });
    }
    manifest.kinds[key] = entry;
  }
  // Written as the project's formatter would write it, so `npm run check` stays green.
  const manifestFile = path.join(OUT, 'manifest.json');
  const options = (await prettier.resolveConfig(manifestFile)) ?? {};
  fs.writeFileSync(
    manifestFile,
    await prettier.format(JSON.stringify(manifest), { ...options, parser: 'json' }),
  );
  const count = Object.values(manifest.kinds).reduce(
    (n, k) => n + k.colourways.length * manifest.views.length,
    0,
  );
  process.stdout.write(
    `Wrote ${count} images (${(total / 1024).toFixed(0)} KiB) to ${path.relative(process.cwd(), OUT)}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
