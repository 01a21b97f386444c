import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { FontSpec, Plugin, Scale, Tick } from 'chart.js';
import { toFont } from 'chart.js/helpers';
import { dateStep } from './date-ticks.ts';
import { compactUnit, currentLocale, date, decimal, tickLabels, usd } from './format.ts';

/** Chart.js with only the parts the app uses; colours come from the theme's CSS variables. */
Chart.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  CategoryScale,
  Filler,
  Tooltip,
  Legend,
  DoughnutController,
  ArcElement,
  BarController,
  BarElement,
);
Chart.defaults.animation = false;

/**
 * Each axis's tick labels as the canvas's data-ticks-<axis> ("3,2 Mio. $|3,4 Mio. $|…"): what
 * the axis says, readable outside the canvas, so the end-to-end tests can check it.
 */
const tickAttributes: Plugin = {
  id: 'folioTickAttributes',
  afterLayout(chart) {
    for (const [id, scale] of Object.entries(chart.scales)) {
      chart.canvas.dataset[`ticks${id.toUpperCase()}`] = scale.ticks.map((t) => [t.label ?? ''].flat().join(' ')).join('|');
    }
  },
};
Chart.register(tickAttributes);
Chart.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--sans') || 'system-ui';

export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

export function palette(): string[] {
  return [1, 2, 3, 4, 5, 6, 7, 8].map((i) => cssVar(`--chart-${i}`));
}

/** What every chart shares: no animation, and Chart.js's own number formatting in the app's locale. */
export function baseOptions(): { responsive: true; maintainAspectRatio: false; locale: string | undefined } {
  return { responsive: true, maintainAspectRatio: false, locale: currentLocale() };
}

/**
 * A tick callback that labels an axis in the app's notation, every tick with the precision its
 * step needs (format.ts `tickLabels`): money compact ("$4.05M", "4,05 Mio. $"; the same decimals
 * when every tick is in one unit, so not "$0.0, $500.0, $1.0K"), ratios ("1.0", "1.5").
 */
export function tickFormat(kind: 'usd' | 'ratio'): (value: number | string, index: number, ticks: Tick[]) => string {
  return (_value, index, ticks) => {
    const values = ticks.map((t) => t.value);
    const labels =
      kind === 'usd'
        ? tickLabels(values, (v, min, max) => usd(v, { compact: true, digits: [min, max] }), new Set(values.map(compactUnit)).size === 1)
        : tickLabels(values, (v, min, max) => decimal(v, min, max), true);
    return labels[index] ?? '';
  };
}

const DAY_MS = 86_400_000;
/** A calendar day (YYYY-MM-DD) as the x value of a point: its UTC midnight in ms. */
export const dayX = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
/**
 * An x axis in proportion to time: dates a day apart are a day apart on the chart, dates a week
 * apart a week. A category axis drew every step alike, so the newest daily snapshot after weekly
 * ones looked a week away and a gap of a month looked like a day. Ticks fall on whole days, from
 * the first date, at the smallest step that keeps at most `maxTicks` of them, fewer where the
 * chart is too narrow for that many labels (measured in the axis's own font at each layout, so a
 * resize or another locale lays them out again).
 */
export function dateAxis(first: string, last: string, maxTicks: number) {
  const min = dayX(first);
  const max = dayX(last);
  const days = Math.max(1, Math.round((max - min) / DAY_MS));
  const label = (v: number) => date(new Date(v).toISOString());
  return {
    type: 'linear' as const,
    min,
    max,
    afterBuildTicks: (scale: Scale) => {
      const ctx = scale.ctx;
      ctx.save();
      ctx.font = toFont((scale.options as { ticks?: { font?: Partial<FontSpec> } }).ticks?.font ?? {}).string;
      // The widest label a tick can have: the longest month name's date is about as wide as any.
      const labelPx = Math.max(...[min, max, Date.UTC(2026, 8, 30)].map((v) => ctx.measureText(label(v)).width));
      ctx.restore();
      const step = dateStep(days, scale.width, labelPx, maxTicks);
      const ticks: Tick[] = [];
      for (let v = min; v <= max; v += step * DAY_MS) ticks.push({ value: v });
      scale.ticks = ticks;
    },
    ticks: { callback: (v: number | string) => label(Number(v)) },
  };
}

/**
 * Gives the value axes of several charts one width, the widest any of them needs (its ticks
 * and its title), so charts stacked above each other line up their dates and no title is
 * pushed over the ticks: a fixed width did that when a locale's labels were longer
 * ("3,8 Mio. $" beside "$3.8M").
 */
export function sharedAxisWidth(): { afterFit: (scale: Scale) => void; add: (chart: Chart) => void } {
  const charts: Chart[] = [];
  let width = 0;
  return {
    afterFit(scale) {
      if (scale.width > width) {
        width = scale.width;
        // The others are laid out again at the new width (their own fit then changes nothing).
        for (const c of charts) if (c !== scale.chart) queueMicrotask(() => c.canvas && c.update('none'));
      }
      scale.width = width;
    },
    add(chart) {
      charts.push(chart);
    },
  };
}

export { Chart };
