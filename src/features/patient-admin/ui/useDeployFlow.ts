import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/messages';
import { addDays, nightsBetween, type DateRange } from '../logic/dates';
import type { DeployPopupState } from './DeployPopup';
import { deviceOutcomeText, outcomeOf } from './deviceAnswer';

export interface DeployFlowOptions<V, A, R> {
  /** The dates being booked and the chosen device: where the past-date popup starts. */
  range: DateRange;
  deviceMasterId: number | null;
  /** The write: a deployment, or any device operation that can meet a booking conflict. */
  write: (vars: V) => Promise<A>;
  /** Before each write: the caller clears its own error. */
  onStart?: () => void;
  onSuccess: (answer: A, vars: V) => Promise<void> | void;
  /** A failure that is neither a booking conflict nor a past date, as the text to show; the popup is closed. */
  onError: (text: string, error: unknown) => void;
  /** Looked at first on any failure (the wizard's taken patient ID); true when handled. The popup is closed. */
  intercept?: (error: unknown) => boolean;
  /** Whether a forced write that meets a conflict again says so inside the popup. */
  forceErrorInPopup?: boolean;
  /** The popup's force button: the same write, forced. */
  onForce: () => void;
  /** The past-date popup's request to an admin. */
  sendRequest: (deviceMasterId: number, deviceId: string, range: DateRange) => Promise<R>;
  onRequested: (answer: R) => Promise<void> | void;
  /** Where a failed request is said: given, the popup closes and this shows it; otherwise it shows in the popup. */
  onRequestError?: (text: string) => void;
  /** The past-date popup's Confirm without a request: book from today instead (after the popup closes). */
  onConfirmToday: () => void;
}

/**
 * The deploy and conflict flow shared by the add-patient wizard and the edit screen's device
 * block (spec 1 §2, §4): the write as a TanStack mutation; a booking conflict opens the deploy
 * popup (force), a past day opens the past-date popup (request an admin or book from today).
 */
export function useDeployFlow<V, A, R>(options: DeployFlowOptions<V, A, R>) {
  const { t } = useTranslation();
  const [popup, setPopup] = useState<DeployPopupState>({ kind: 'closed' });
  const [popupError, setPopupError] = useState<string | null>(null);
  const close = () => setPopup({ kind: 'closed' });

  const deploy = useMutation({
    mutationFn: ({ vars }: { vars: V; force: boolean }) => options.write(vars),
    onMutate: () => {
      setPopupError(null);
      options.onStart?.();
    },
    onSuccess: (answer, { vars }) => options.onSuccess(answer, vars),
    onError: (error, { force }) => {
      if (options.intercept?.(error)) return close();
      const outcome = outcomeOf(error);
      if (outcome.kind === 'occupied') {
        const text = errorText(t, error);
        if (force && options.forceErrorInPopup) setPopupError(text);
        setPopup({ kind: 'conflict', text: `${text} ${t('patientAdmin.device.occupiedHint')}` });
        return;
      }
      if (outcome.kind === 'pastDate') {
        setPopup({ kind: 'past', range: options.range, deviceMasterId: options.deviceMasterId });
        return;
      }
      close();
      options.onError(outcome.kind === 'other' ? errorText(t, error) : deviceOutcomeText(t, outcome, error), error);
    },
  });

  const request = useMutation({
    mutationFn: ({ deviceMasterId, deviceId, range }: { deviceMasterId: number; deviceId: string; range: DateRange }) => options.sendRequest(deviceMasterId, deviceId, range),
    onMutate: () => setPopupError(null),
    onSuccess: async (answer) => {
      close();
      await options.onRequested(answer);
    },
    onError: (error) => {
      if (options.intercept?.(error)) return close();
      const text = errorText(t, error);
      if (options.onRequestError) {
        close();
        options.onRequestError(text);
      } else setPopupError(text);
    },
  });

  const busy = deploy.isPending || request.isPending;
  return {
    busy,
    /** Runs the write; `force` after a conflict. */
    run: (vars: V, force = false) => deploy.mutate({ vars, force }),
    close,
    /** The date picker's day before today: the past-date popup, for as many nights as chosen. */
    openPastDate: (day: string) => {
      setPopupError(null);
      setPopup({ kind: 'past', range: { allocation: day, deallocation: addDays(day, nightsBetween(options.range.allocation, options.range.deallocation)) }, deviceMasterId: options.deviceMasterId });
    },
    /** Everything DeployPopup takes but the zone and the patient code. */
    popupProps: {
      state: popup,
      busy,
      error: popupError,
      onClose: close,
      onForce: options.onForce,
      onSendRequest: (deviceMasterId: number, deviceId: string, range: DateRange) => request.mutate({ deviceMasterId, deviceId, range }),
      onConfirmToday: () => {
        close();
        options.onConfirmToday();
      },
    },
  };
}
