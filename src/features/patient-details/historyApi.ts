// Calls of the histories (symptoms, medication, diet plan) and questionnaire answers (spec 2 §7).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { HISTORY_FETCH_PATHS, type Answers, type HistoryKind } from '../../../contract/questionnaire-rules';

const historyKeys = {
  list: (patientId: number, kind: HistoryKind) => ['patient', patientId, 'history', kind] as const,
  questionnaires: (patientId: number) => ['patient', patientId, 'questionnaires'] as const,
};

/** A patient's live entries of one kind, newest first. */
export function useHistory(patientId: number, kind: HistoryKind) {
  return useQuery({
    queryKey: historyKeys.list(patientId, kind),
    queryFn: async () => (await call(`GET ${HISTORY_FETCH_PATHS[kind]}`, { query: { patient_id: patientId } })).data.entries,
  });
}

export type HistoryChange =
  | { op: 'add'; timestamp: number; value: string }
  | { op: 'update'; id: number; timestamp: number; value: string }
  | { op: 'delete'; id: number };

/** Adds, edits or removes an entry of `kind`; the answer carries the list as it is now. */
export function useHistoryChange(patientId: number, kind: HistoryKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: HistoryChange) => {
      if (change.op === 'add') {
        return call('POST /patient/add-history-entry', { body: { patient_id: patientId, kind, timestamp: change.timestamp, symptom_medication_value: change.value } });
      }
      if (change.op === 'update') {
        return call('POST /patient/update-history-entry', { body: { patient_id: patientId, id: change.id, timestamp: change.timestamp, symptom_medication_value: change.value } });
      }
      return call('POST /patient/delete-history-entry', { body: { patient_id: patientId, id: change.id } });
    },
    onSuccess: (res) => client.setQueryData(historyKeys.list(patientId, kind), res.data.entries),
  });
}

/** Every questionnaire answered for the patient (screening and check-ups), newest first. */
export function useQuestionnaires(patientId: number) {
  return useQuery({
    queryKey: historyKeys.questionnaires(patientId),
    queryFn: async () => (await call('GET /device/qna', { query: { patient_id: patientId } })).data.questionnaires,
  });
}

/** Saves the check-up questionnaire of a completed check-up. */
export function useCheckupAnswers(patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ checkupId, answers }: { checkupId: number; answers: Answers }) =>
      call('POST /patient/checkup-questionnaire', { body: { patient_id: patientId, checkup_date_id: checkupId, answers } }),
    onSuccess: (res) => client.setQueryData(historyKeys.questionnaires(patientId), res.data.questionnaires),
  });
}
