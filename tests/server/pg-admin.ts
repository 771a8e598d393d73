import pg from 'pg';

/** One statement on its own connection (schemas made and dropped, the run's VACUUM): no pool, nothing left open. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
