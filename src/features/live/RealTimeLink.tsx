import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { deviceTestingPath } from '../../routes';

/** The night view's real-time data link (spec 2 §2 Actions); not for annotators (the caller checks). */
export function RealTimeLink({ patientId, deviceId }: { patientId: number; deviceId: string | null }) {
  const { t } = useTranslation();
  const [path] = useLocation();
  const search = useSearch();
  if (!deviceId) return null;
  return (
    <Link href={deviceTestingPath(patientId, deviceId, `${path}${search ? `?${search}` : ''}`)} className="button realtime-link" data-testid="realtime-link">
      {t('live.link')}
    </Link>
  );
}
