import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * Where uploads stream while they are received and parsed (issue 33 point 6): a private
 * folder of the app (mode 0700) with one sub-folder per server process, `<pid>-…`. Each
 * upload's folder is removed on every outcome; folders of processes that are gone (kill -9,
 * a crash) are swept when a server starts, so no patient file stays outside the database.
 * UPLOAD_TMP_DIR overrides the root (tests).
 */
function uploadRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.UPLOAD_TMP_DIR || path.join(tmpdir(), `nocturne-uploads-${userInfo().uid}`);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the pid exists (another user's process); only ESRCH says it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** This process's folder, created private; folders of dead processes under the root are removed first. */
export async function prepareUploadDir(root = uploadRoot()): Promise<string> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const name of await readdir(root)) {
    const pid = Number(name.split('-')[0]);
    if (!Number.isInteger(pid) || (pid !== process.pid && !alive(pid))) await rm(path.join(root, name), { recursive: true, force: true });
  }
  return mkdtemp(path.join(root, `${process.pid}-`));
}
