/** The file name a Content-Disposition header gives (RFC 6266: filename* first), else `fallback`. */
function fileNameOf(disposition: string | null, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="([^"]+)"/i.exec(disposition ?? '');
  return plain ? plain[1]! : fallback;
}

/**
 * Hands a contract route's download (`download('GET /reports/:id/file', …)` from ./client: its
 * failures are ApiErrors the global hook has seen) to the browser once it has arrived, under the
 * server's file name or `fallback`.
 */
export async function downloadFile(file: Promise<Response>, fallback: string): Promise<void> {
  await saveFile(await file, fallback);
}

/**
 * Hands a file the server answered (a contract file route's `download`) to the browser as a
 * download, under the server's file name or `fallback`. Every download of the app ends here.
 */
export async function saveFile(response: Response, fallback: string): Promise<void> {
  const url = URL.createObjectURL(await response.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = fileNameOf(response.headers.get('content-disposition'), fallback);
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click has started the download; the object URL may go once it is read.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
