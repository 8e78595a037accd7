/**
 * Orders by hour as a bar chart, drawn by hand in SVG (the geometry is shared with the fleet page:
 * shared/chart.ts; why no chart library: docs/decisions.md "Charts"): orders received and orders
 * packed in each hour of the day. Only the hours from the first to the last with anything in them,
 * so a counter open 9 to 21 gets wide bars. No animation and no measuring: the picture is there in
 * one render, on screen and on paper.
 */
import type { ShiftReport } from '../../../../shared/ipc';
import { barSlots, type ChartBox, niceMax, yOf, yTicks } from '../../../../shared/chart';
import { formatNumber } from '../../format';
import { useWords } from '../../i18n/useWords';

/** The hours worth drawing: from the first busy hour to the last (all 24 when the day was empty). */
export function busyHours(byHour: ShiftReport['byHour']): ShiftReport['byHour'] {
  const busy = byHour.filter((h) => h.received + h.packed > 0).map((h) => h.hour);
  if (busy.length === 0) return byHour;
  return byHour.filter((h) => h.hour >= Math.min(...busy) && h.hour <= Math.max(...busy));
}

const SERIES = ['received', 'packed'] as const;

export function HourChart({ byHour, width, height, print = false }: { byHour: ShiftReport['byHour']; width: number; height: number; print?: boolean }) {
  const { t, locale } = useWords();
  const hours = busyHours(byHour);
  const fontSize = print ? 10 : 14;
  // The legend is plain HTML under the chart; its height and the bars' colours are in shift.css.
  const legendHeight = Math.round(fontSize * 1.8);
  const box: ChartBox = { width, height: height - legendHeight, pad: { left: print ? 24 : 36, right: 8, top: 8, bottom: fontSize + 10 } };
  const max = niceMax(Math.max(0, ...hours.map((h) => Math.max(h.received, h.packed))));
  const slots = barSlots(box, hours.length, SERIES.length, print ? 28 : 40);
  const className = print ? 'hour-chart hour-chart-print' : 'hour-chart';
  return (
    <div className={className}>
      <svg width={box.width} height={box.height} viewBox={`0 0 ${box.width} ${box.height}`} fontSize={fontSize}>
        {yTicks(max).map((v) => {
          const y = yOf(box, max, v);
          return (
            <g key={v}>
              <line className={v === 0 ? 'hour-chart-axis' : 'hour-chart-grid'} x1={box.pad.left} x2={box.width - box.pad.right} y1={y} y2={y} />
              <text className="hour-chart-label" x={box.pad.left - 4} y={y + fontSize / 3} textAnchor="end">
                {formatNumber(v, locale)}
              </text>
            </g>
          );
        })}
        {hours.map((h, i) => (
          <g key={h.hour}>
            {SERIES.map((key, k) => {
              const { x, width: w } = slots.bar(i, k);
              const y = yOf(box, max, h[key]);
              return <rect key={key} className={`hour-chart-bar hour-chart-${key}`} x={x} y={y} width={w} height={box.height - box.pad.bottom - y} data-value={h[key]} />;
            })}
            <text className="hour-chart-label" x={slots.slotMiddle(i)} y={box.height - 4} textAnchor="middle">
              {String(h.hour).padStart(2, '0')}
            </text>
          </g>
        ))}
      </svg>
      <ul className="hour-chart-legend">
        {SERIES.map((key) => (
          <li key={key}>
            <span className={`hour-chart-swatch hour-chart-${key}`} />
            {t(`shiftReport:chart.${key}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
