import { readConfig, ConfigError } from './config';
import { createLogger } from './log';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed';
import { openDatabase, prepare, StartupError, type Running } from './start';

/** `npm start`: one server for the SPA and /api/v1; any start-up failure is one line and exit 1. */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const { db, release } = await openDatabase(config, logger);
  let running: Running;
  try {
    // The start-up lines are for the person who ran `npm start`: plain text, not the JSON log.
    running = await prepare(config, db, release, (line) => console.log(line), logger);
  } catch (err) {
    await db.close().catch(() => undefined);
    await release();
    throw err;
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping Nocturne.`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await running.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await running.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`Port ${config.port} is already in use. Stop the other server or set PORT to a free port.`);
    if (code === 'EACCES') throw new StartupError(`Port ${config.port} needs privileges this user does not have. Set PORT to 1024 or above.`);
    throw err;
  }

  // What `npm start` tells the person who ran it (tests and the README read these lines): plain text on stdout.
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const port = (running.app.server.address() as { port: number }).port;
  console.log(`Nocturne is running at http://localhost:${port} — database: ${where}.`);
  if (running.seeded) console.log('Seeded the demo clinic (accounts, patients, devices).');
  if (running.nights) console.log(`Simulated ${running.nights} demo nights.`);
  if (config.seedDemo) {
    console.log(`Sign in as ${DEMO_ACCOUNTS.physician} (or ${DEMO_ACCOUNTS.annotator}, ${DEMO_ACCOUNTS.annotator2}, ${DEMO_ACCOUNTS.admin}, ${DEMO_ACCOUNTS.secondary}, ${DEMO_ACCOUNTS.paid}) with password "${DEMO_PASSWORD}".`);
  }
  if (!config.smtpUrl && !config.production) {
    console.log(`One-time codes are printed here and readable at http://localhost:${port}/api/v1/dev/outbox?email=<address> from this machine only (no SMTP_URL set).`);
  } else if (!config.smtpUrl) {
    console.log('No SMTP_URL set: mail is kept in the mail_outbox table only; set SMTP_URL so users receive their codes.');
  }

}

main().catch((err: Error) => {
  if (err instanceof StartupError || err instanceof ConfigError) {
    console.error(`Nocturne cannot start: ${err.message}`);
  } else {
    console.error(`Nocturne cannot start: ${err.stack ?? err.message}`);
  }
  process.exit(1);
});
