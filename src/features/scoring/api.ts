// Double scoring (issue 36 points 2–3): the calls and their queries. The server decides what a
// scorer may see; the browser only refetches the night's marks when a round changes state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Agreement,
  Annotator,
  Assignment,
  CreateRoundBody,
  DecideBody,
  DisagreementsAnswer,
  RoundAnswer,
  RoundRef,
  ScorerQuality,
  ScoringRound,
} from '../../../contract/scoring-rounds';
import { request } from '../../api/client';

export type { Agreement, Annotator, Assignment, DisagreementsAnswer, ScorerQuality, ScoringRound };

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
    queryFn: async ({ signal }) => (await request<RoundAnswer>('GET', `/scoring/rounds?patient_id=${n.patientId}&night=${n.night}`, undefined, { signal })).data?.round ?? null,
    enabled: n.patientId > 0 && n.night > 0,
    // Others change a round (an annotator submits, the physician finishes): read again on each visit, and every half minute while scored.
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.status === 'scoring' ? 30_000 : false),
  });
}

export function useAnnotators(patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: scoringKeys.annotators(patientId),
    queryFn: async ({ signal }) => (await request<{ annotators: Annotator[] }>('GET', `/scoring/annotators?patient_id=${patientId}`, undefined, { signal })).data?.annotators ?? [],
    enabled,
  });
}

export function useAgreement(roundId: number | null) {
  return useQuery({
    queryKey: scoringKeys.agreement(roundId ?? 0),
    queryFn: async ({ signal }) => (await request<Agreement>('GET', `/scoring/rounds/agreement?round_id=${roundId}`, undefined, { signal })).data ?? null,
    enabled: roundId !== null,
  });
}

export function useDisagreements(roundId: number | null) {
  return useQuery({
    queryKey: scoringKeys.disagreements(roundId ?? 0),
    queryFn: async ({ signal }) => (await request<DisagreementsAnswer>('GET', `/scoring/rounds/disagreements?round_id=${roundId}`, undefined, { signal })).data ?? null,
    enabled: roundId !== null,
  });
}

export function useAssignments() {
  return useQuery({
    queryKey: scoringKeys.assignments,
    queryFn: async ({ signal }) => (await request<{ assignments: Assignment[] }>('GET', '/scoring/assignments', undefined, { signal })).data?.assignments ?? [],
  });
}

/** One annotator's agreement with consensus (null: the caller's own). */
export function useQuality(userId: number | null, enabled = true) {
  return useQuery({
    queryKey: scoringKeys.quality(userId),
    queryFn: async ({ signal }) => (await request<ScorerQuality>('GET', `/scoring/quality${userId === null ? '' : `?user_id=${userId}`}`, undefined, { signal })).data ?? null,
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
  const post = async <T,>(path: string, body: unknown) => (await request<T>('POST', path, body)).data;
  return {
    create: useMutation({
      mutationFn: (input: Pick<CreateRoundBody, 'scorer_ids' | 'show_automatic'>) => post<RoundAnswer>('/scoring/rounds', { patient_id: n.patientId, night: n.night, ...input } satisfies CreateRoundBody),
      onSuccess: settle,
    }),
    submit: useMutation({ mutationFn: (roundId: number) => post<RoundAnswer>('/scoring/rounds/submit', { round_id: roundId } satisfies RoundRef), onSuccess: settle }),
    cancel: useMutation({ mutationFn: (roundId: number) => post<RoundAnswer>('/scoring/rounds/cancel', { round_id: roundId } satisfies RoundRef), onSuccess: settle }),
    decide: useMutation({
      mutationFn: (body: DecideBody) => post<unknown>('/scoring/rounds/decide', body),
      onSuccess: async (_data, body) => {
        await client.invalidateQueries({ queryKey: scoringKeys.disagreements(body.round_id) });
        await client.invalidateQueries({ queryKey: scoringKeys.round(n) });
      },
    }),
    finish: useMutation({ mutationFn: (roundId: number) => post<RoundAnswer>('/scoring/rounds/finish', { round_id: roundId } satisfies RoundRef), onSuccess: settle }),
  };
}
