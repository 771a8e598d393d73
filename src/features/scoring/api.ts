// Double scoring (issue 36 points 2–3): the calls and their queries. The server decides what a
// scorer may see; the browser only refetches the night's marks when a round changes state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Agreement, Assignment, CreateRoundBody, DecideBody, ScoringRound } from '../../../contract/scoring-rounds';
import { call } from '../../api/client';

export type { Agreement, Assignment, ScoringRound };

export interface NightKey {
  patientId: number;
  night: number;
}

const scoringKeys = {
  round: (n: NightKey) => ['patient', n.patientId, 'scoring-round', n.night] as const,
  annotators: (patientId: number) => ['scoring-annotators', patientId] as const,
  agreement: (roundId: number) => ['scoring-agreement', roundId] as const,
  disagreements: (roundId: number) => ['scoring-disagreements', roundId] as const,
  assignments: ['scoring-assignments'] as const,
  quality: (userId: number | null) => ['scoring-quality', userId] as const,
};

export function useRound(n: NightKey) {
  return useQuery({
    queryKey: scoringKeys.round(n),
    queryFn: async ({ signal }) => (await call('GET /scoring/rounds', { query: { patient_id: n.patientId, night: n.night } }, { signal })).data.round,
    enabled: n.patientId > 0 && n.night > 0,
    // Others change a round (an annotator submits, the physician finishes): read again on each visit, and every half minute while scored.
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.status === 'scoring' ? 30_000 : false),
  });
}

export function useAnnotators(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: scoringKeys.annotators(patientId),
    queryFn: async ({ signal }) => (await call('GET /scoring/annotators', { query: { patient_id: patientId } }, { signal })).data.annotators,
    enabled,
  });
}

export function useAgreement(roundId: number | null) {
  return useQuery({
    queryKey: scoringKeys.agreement(roundId ?? 0),
    queryFn: async ({ signal }) => (await call('GET /scoring/rounds/agreement', { query: { round_id: roundId ?? 0 } }, { signal })).data,
    enabled: roundId !== null,
  });
}

export function useDisagreements(roundId: number | null) {
  return useQuery({
    queryKey: scoringKeys.disagreements(roundId ?? 0),
    queryFn: async ({ signal }) => (await call('GET /scoring/rounds/disagreements', { query: { round_id: roundId ?? 0 } }, { signal })).data,
    enabled: roundId !== null,
  });
}

export function useAssignments() {
  return useQuery({
    queryKey: scoringKeys.assignments,
    queryFn: async ({ signal }) => (await call('GET /scoring/assignments', {}, { signal })).data.assignments,
  });
}

/** One annotator's agreement with consensus (null: the caller's own). */
export function useQuality(userId: number | null, enabled = true) {
  return useQuery({
    queryKey: scoringKeys.quality(userId),
    queryFn: async ({ signal }) => (await call('GET /scoring/quality', { query: userId === null ? {} : { user_id: userId } }, { signal })).data,
    enabled,
  });
}

/** Night figures and lists a round's change of state changes: refetched after each write. */
const FOLLOWERS = new Set(['summary', 'agreement', 'trend', 'actigraph', 'scoring-round']);

/** The writes of a round; each refetches the round, the night's marks and the figures that follow them. */
export function useRoundWrites(n: NightKey) {
  const client = useQueryClient();
  const settle = async () => {
    await client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'patient' && q.queryKey[1] === n.patientId && FOLLOWERS.has(String(q.queryKey[2])) });
    await client.invalidateQueries({ queryKey: ['annotations', n.patientId, n.night] });
    await client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('scoring-') });
  };
  return {
    create: useMutation({
      mutationFn: async (input: Pick<CreateRoundBody, 'scorer_ids' | 'show_automatic'>) => (await call('POST /scoring/rounds', { body: { patient_id: n.patientId, night: n.night, ...input } })).data,
      onSuccess: settle,
    }),
    submit: useMutation({ mutationFn: async (roundId: number) => (await call('POST /scoring/rounds/submit', { body: { round_id: roundId } })).data, onSuccess: settle }),
    cancel: useMutation({ mutationFn: async (roundId: number) => (await call('POST /scoring/rounds/cancel', { body: { round_id: roundId } })).data, onSuccess: settle }),
    decide: useMutation({
      mutationFn: async (body: DecideBody) => (await call('POST /scoring/rounds/decide', { body })).data,
      onSuccess: async (_data, body) => {
        await client.invalidateQueries({ queryKey: scoringKeys.disagreements(body.round_id) });
        await client.invalidateQueries({ queryKey: scoringKeys.round(n) });
      },
    }),
    finish: useMutation({ mutationFn: async (roundId: number) => (await call('POST /scoring/rounds/finish', { body: { round_id: roundId } })).data, onSuccess: settle }),
  };
}
