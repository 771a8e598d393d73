import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useDismiss } from '../../ui/useDismiss';
import { formatNightDate } from '../../charts/core/format';
import { unreadCount, useDeviceNotices, useMarkRead, useNotifications } from '../dashboard/api';

/**
 * The notification bell (spec 1 §3, §4): unread nights with their apnea counts, devices
 * due back and devices reserved. Clicking a night marks it read and opens it. Paid
 * memberships do not fetch the night notifications on load; they load on opening.
 */
export function NotificationBell({ paid }: { paid: boolean }) {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const notifications = useNotifications(!paid || open);
  const devices = useDeviceNotices(true);
  const markRead = useMarkRead();
  const box = useRef<HTMLDivElement>(null);
  useDismiss(open, box, () => setOpen(false));
  const count = unreadCount(notifications.data ?? [], devices.data);
  const openNight = async (n: { id: number; patient_id: number; night: number; is_read: number }) => {
    if (n.is_read === 0) await markRead.mutateAsync(n.id);
    setOpen(false);
    navigate(`/app/patients/id=${n.patient_id}?night=${n.night}`);
  };
  return (
    <div className="notification-bell" ref={box}>
      <button
        type="button"
        className="button button-quiet bell-button"
        aria-label={t('notifications.open', { count })}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="notification-bell"
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" fill="currentColor" />
        </svg>
        {count > 0 && <span className="bell-count" data-testid="notification-count">{count}</span>}
      </button>
      {open && (
        <div className="bell-panel" role="dialog" aria-label={t('notifications.title')} data-testid="notification-panel">
          <h3>{t('notifications.title')}</h3>
          {notifications.isPending && <p className="muted" role="status">{t('common.loading')}</p>}
          {(devices.data?.deallocations ?? []).map((d) => (
            <p key={`d-${d.device_id}`} className="bell-item bell-device" data-testid="notification-deallocation">
              {t('notifications.deallocation', { device: d.device_id, date: d.device_deallocation_date })}
            </p>
          ))}
          {(devices.data?.reserved ?? []).map((d) => (
            <p key={`r-${d.device_id}`} className="bell-item bell-device" data-testid="notification-reserved">
              {t('notifications.reserved', { device: d.device_id, date: d.allocated_date })}
            </p>
          ))}
          {notifications.data && notifications.data.length === 0 && (devices.data?.deallocations.length ?? 0) + (devices.data?.reserved.length ?? 0) === 0 && (
            <p className="muted" data-testid="notification-empty">{t('notifications.empty')}</p>
          )}
          <ul>
            {(notifications.data ?? []).map((n) => (
              <li key={n.id}>
                <button
                  type="button"
                  className={`bell-item${n.is_read === 0 ? ' unread' : ''}`}
                  onClick={() => void openNight(n)}
                  data-testid="notification-item"
                  data-read={n.is_read}
                >
                  <strong>{n.patient_code}</strong> · {formatNightDate(n.night, i18n.language)}
                  <span className="muted"> · {n.apnea_events === null ? t(n.ahi_basis === 'no_breathing_signal_in_sleep' ? 'nightBasis.noBreathingInSleep' : 'nightBasis.bellNoBasis') : t('notifications.events', { count: n.apnea_events })}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
