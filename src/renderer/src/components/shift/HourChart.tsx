/**
 * Orders by hour as a bar chart (recharts: SVG, drawn offline, printed as it is shown): orders
 * received and orders packed in each hour of the day. Only the hours from the first to the last
 * with anything in them, so a counter open 9 to 21 gets wide bars. No animation: the picture is
 * there at once, on screen and on paper. Drawn in one pass: no recharts Legend (it measures itself
 * and draws the chart again), no measured tick labels.
 */
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import type { ShiftReport } from '../../../../shared/ipc';
import { formatNumber } from '../../format';
import { useWords } from '../../i18n/useWords';

/** The hours worth drawing: from the first busy hour to the last (all 24 when the day was empty). */
export function busyHours(byHour: ShiftReport['byHour']): ShiftReport['byHour'] {
  const busy = byHour.filter((h) => h.received + h.packed > 0).map((h) => h.hour);
  if (busy.length === 0) return byHour;
  return byHour.filter((h) => h.hour >= Math.min(...busy) && h.hour <= Math.max(...busy));
}

export function HourChart({ byHour, width, height, print = false }: { byHour: ShiftReport['byHour']; width: number; height: number; print?: boolean }) {
  const { t, locale } = useWords();
  const data = busyHours(byHour).map((h) => ({ hour: String(h.hour).padStart(2, '0'), received: h.received, packed: h.packed }));
  const fontSize = print ? 10 : 14;
  const colours = { received: print ? '#555' : '#1d5fbf', packed: print ? '#000' : '#1a7f37' };
  // The legend is plain HTML under the chart: recharts' own Legend measures itself after the first
  // render and draws the whole chart a second time to make room (a third of the screen's first paint).
  // Its height and colours are in shift.css (no inline styles), the same as the bars' here.
  const legendHeight = Math.round(fontSize * 1.8);
  return (
    <div className="hour-chart">
      <BarChart width={width} height={height - legendHeight} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={print ? '#999' : '#c8cdd3'} />
        <XAxis dataKey="hour" tick={{ fontSize, fill: '#1f2328' }} interval={0} tickLine={false} />
        {/* Every tick (interval 0): the default thins them by measuring each label's text first. */}
        <YAxis allowDecimals={false} interval={0} width={print ? 24 : 36} tick={{ fontSize, fill: '#1f2328' }} tickFormatter={(n: number) => formatNumber(n, locale)} />
        <Bar dataKey="received" fill={colours.received} isAnimationActive={false} />
        <Bar dataKey="packed" fill={colours.packed} isAnimationActive={false} />
      </BarChart>
      <ul className={print ? 'hour-chart-legend hour-chart-print' : 'hour-chart-legend'}>
        {(['received', 'packed'] as const).map((key) => (
          <li key={key}>
            <span className={`hour-chart-swatch hour-chart-${key}`} />
            {t(`shiftReport:chart.${key}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
