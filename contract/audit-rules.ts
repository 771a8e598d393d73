// How the access trail reads a call, shared by the server (which records it) and the app (which
// filters by it); no schema library (the app loads this file at run time).

/**
 * The spec's API reads many things by POST (get-comment, get-annotations, device-history…):
 * whether an access read or changed data is told by its route, not its method alone.
 */
const POST_READS = new Set(['/analytics/patient/all-kpi-summary', '/device/device-history', '/device/future-allocations']);

/** 'read' for a GET or a POST that only reads (a `get-` route or one of POST_READS), else 'change'. */
export function accessKind(method: string, route: string): 'read' | 'change' {
  if (method === 'GET' || method === 'HEAD') return 'read';
  const last = route.slice(route.lastIndexOf('/') + 1);
  return last.startsWith('get-') || POST_READS.has(route) ? 'read' : 'change';
}
