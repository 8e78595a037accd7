/** A barcode as inline SVG: its bars are React elements, so there is nothing for the CSP to allow. */
import type { BarPattern } from '../../print';

/** Bar height in the SVG's own units; CSS sets the printed height and the bars stretch to it. */
const HEIGHT = 40;

/** Draws `pattern`; without one (the id could not be encoded) the id is printed large instead. */
export function Barcode({ value, pattern, label }: { value: string; pattern: BarPattern | null; label: string }) {
  if (!pattern)
    return (
      <p className="print-barcode-text" data-testid="barcode-missing">
        {value}
      </p>
    );
  return (
    <figure className="print-barcode" data-testid="barcode" data-value={value}>
      <svg
        viewBox={`0 0 ${pattern.modules} ${HEIGHT}`}
        preserveAspectRatio="none"
        shapeRendering="crispEdges"
        role="img"
        aria-label={label}
        xmlns="http://www.w3.org/2000/svg"
      >
        <rect x={0} y={0} width={pattern.modules} height={HEIGHT} fill="#ffffff" />
        {pattern.bars.map((bar) => (
          <rect key={bar.x} x={bar.x} y={0} width={bar.width} height={HEIGHT} fill="#000000" />
        ))}
      </svg>
      <figcaption className="print-barcode-text">{value}</figcaption>
    </figure>
  );
}
