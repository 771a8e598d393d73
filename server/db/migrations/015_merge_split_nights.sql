-- Nights split before night merging existed (issue 12): files of one night imported at
-- different times became several recordings of one patient with one night key, and the
-- summary read only the first. Each such group becomes one recording, as an import now
-- makes it (server/recordings/night-files.ts mergeIntoRecording): the earliest recording
-- stays; the others' channels move to it with their own t0 (a code it already has is kept
-- under the channel's label, else label#2, #3 …), with their events, files, device events,
-- annotations and truth; start and stop widen, an empty device id is filled, the file lists
-- join, and cached analyses of the group are dropped (rebuilt on demand); the notification
-- of the recording kept stays (with whether it was seen).
-- The migration runs in one transaction with its schema_migrations row; on merged data it
-- changes nothing.
do $$
declare
  g record;
  dup record;
  ch record;
  new_code text;
  n integer;
begin
  for g in
    select patient_id, night_key,
      (array_agg(id order by start_ms, id))[1] as keep
    from recordings group by patient_id, night_key having count(*) > 1
  loop
    delete from night_analyses where recording_id = g.keep;
    for dup in
      select * from recordings where patient_id = g.patient_id and night_key = g.night_key and id <> g.keep order by start_ms, id
    loop
      for ch in select id, code, label from recording_channels where recording_id = dup.id order by id loop
        new_code := ch.code;
        if exists (select 1 from recording_channels where recording_id = g.keep and code = new_code) then
          new_code := ch.label;
          n := 2;
          while exists (select 1 from recording_channels where recording_id = g.keep and code = new_code) loop
            new_code := ch.label || '#' || n;
            n := n + 1;
          end loop;
        end if;
        update recording_channels set recording_id = g.keep, code = new_code where id = ch.id;
      end loop;
      update recording_events set recording_id = g.keep where recording_id = dup.id;
      update recording_files set recording_id = g.keep where recording_id = dup.id;
      update device_events set recording_id = g.keep where recording_id = dup.id;
      update annotations set recording_id = g.keep where recording_id = dup.id;
      if not exists (select 1 from recording_truth where recording_id = g.keep) then
        update recording_truth set recording_id = g.keep where recording_id = dup.id;
      end if;
      update recordings r set
        start_ms = least(r.start_ms, dup.start_ms),
        stop_ms = greatest(r.stop_ms, dup.stop_ms),
        device_id = coalesce(nullif(r.device_id, ''), dup.device_id),
        recording_meta = r.recording_meta || jsonb_build_object('files',
          coalesce(case when jsonb_typeof(r.recording_meta -> 'files') = 'array' then r.recording_meta -> 'files' end, '[]'::jsonb)
          || coalesce(case when jsonb_typeof(dup.recording_meta -> 'files') = 'array' then dup.recording_meta -> 'files' end, '[]'::jsonb))
      where r.id = g.keep;
      -- Its analyses, notification and any truth left go with it.
      delete from recordings where id = dup.id;
    end loop;
  end loop;
end
$$;
