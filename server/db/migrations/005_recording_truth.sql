-- A simulated night's full ground truth (events with nadirs, stages, cycles), for scoring detectors.
create table recording_truth (
  recording_id integer primary key references recordings (id) on delete cascade,
  generator text not null,
  truth jsonb not null
);
