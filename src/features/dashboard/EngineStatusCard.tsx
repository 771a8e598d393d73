import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkEngine, type EngineStatus } from './engineCheck';

/** The "System" card: whether the signal engine answers, where it runs, with SIMD or not. */
export function EngineStatusCard() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<EngineStatus>({ state: 'checking' });

  useEffect(() => {
    let live = true;
    void checkEngine().then((s) => live && setStatus(s));
    return () => {
      live = false;
    };
  }, []);

  let text: string;
  if (status.state === 'checking') text = t('dashboard.system.checking');
  else if (status.state === 'ready')
    text = t('dashboard.system.ready', {
      mode: t(`dashboard.system.${status.mode}`),
      simd: status.simd ? t('dashboard.system.simd') : t('dashboard.system.noSimd'),
    });
  else
    text = t('dashboard.system.failed', {
      reason: status.reason === 'mismatch' ? t('dashboard.system.mismatch', { got: status.got }) : status.reason,
    });

  return (
    <section className="card" aria-labelledby="system-card-title">
      <h2 id="system-card-title" className="card-title">
        {t('dashboard.system.title')}
      </h2>
      <p
        className={`engine-status engine-${status.state}`}
        data-testid="engine-status"
        data-mode={status.state === 'checking' ? undefined : status.mode}
        data-ok={status.state === 'checking' ? undefined : String(status.state === 'ready')}
        role="status"
      >
        <span className="status-dot" aria-hidden="true" />
        {text}
      </p>
      {status.state === 'ready' && <p className="card-meta">{t('dashboard.system.version', { version: status.version })}</p>}
    </section>
  );
}
