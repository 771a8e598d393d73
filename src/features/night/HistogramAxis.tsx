/** The first and last bin edges under a histogram (the night view's and the Real Time view's). */
export function HistogramAxis({ edges }: { edges: ArrayLike<number> }) {
  return (
    <div className="histogram-axis mono" dir="ltr">
      <span>{edges[0]!.toFixed(0)}</span>
      <span>{edges[edges.length - 1]!.toFixed(0)}</span>
    </div>
  );
}
