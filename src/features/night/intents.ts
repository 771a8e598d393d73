/**
 * Requests to annotate, from anywhere on the review screen (a Ctrl-selection on a chart,
 * a key): a tiny framework-free channel, so the charts need not know the popup.
 */
export interface AnnotateRequest {
  startMs: number;
  endMs: number;
  /** The channel the selection was made on. */
  channel?: string;
}

type Listener = (r: AnnotateRequest) => void;
const listeners = new Set<Listener>();

export function requestAnnotation(r: AnnotateRequest): void {
  for (const l of listeners) l(r);
}

export function onAnnotationRequest(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
