import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { adminApi, adminKeys } from '../patient-admin/api';
import { displayDay } from '../patient-admin/logic/dates';
import { browserZone } from '../../format';
import { Dialog } from '../../ui/Dialog';

/** A device's bookings that have not started yet, with a confirmed 'cancel them all'. */
export function FutureBookings({ deviceId, canCancel }: { deviceId: string; canCancel: boolean }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const query = useQuery({ queryKey: ['device', 'future', deviceId], queryFn: async () => (await adminApi.futureAllocations(deviceId)).data.allocations });
  const cancel = useMutation({
    mutationFn: () => adminApi.cancelFutureAllocations(deviceId),
    onSuccess: async () => {
      setAsking(false);
      await queryClient.invalidateQueries({ queryKey: ['device', 'future', deviceId] });
      await queryClient.invalidateQueries({ queryKey: adminKeys.dataCenter });
      await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
    },
  });
  const zone = browserZone();
  const list = query.data ?? [];
  return (
    <div className="future-bookings" data-testid="future-bookings">
      {query.isPending ? (
        <span className="muted">{t('common.loading')}</span>
      ) : list.length === 0 ? (
        <span className="muted">{t('patientAdmin.dataCenter.futureNone')}</span>
      ) : (
        <>
          <ul>
            {list.map((a) => (
              <li key={a.device_user_map_id}>
                {t('patientAdmin.dataCenter.futureItem', { code: a.patient_code, from: displayDay(Number(a.allocation_ms), zone, i18n.language), to: displayDay(Number(a.deallocation_ms), zone, i18n.language) })}
              </li>
            ))}
          </ul>
          {canCancel && (
            <button type="button" className="button button-danger" onClick={() => setAsking(true)} data-testid="future-cancel">
              {t('patientAdmin.dataCenter.futureCancel')}
            </button>
          )}
        </>
      )}
      <Dialog
        open={asking}
        title={t('patientAdmin.dataCenter.futureCancel')}
        onClose={() => setAsking(false)}
        actions={
          <>
            <button type="button" className="button" onClick={() => setAsking(false)}>
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button type="button" className="button button-danger" disabled={cancel.isPending} onClick={() => cancel.mutate()} data-testid="future-cancel-confirm">
              {t('patientAdmin.dataCenter.futureCancel')}
            </button>
          </>
        }
      >
        <p>{t('patientAdmin.dataCenter.futureConfirm', { device: deviceId })}</p>
        {cancel.isError && <p className="field-error">{errorText(t, cancel.error)}</p>}
      </Dialog>
    </div>
  );
}
