-- Double scoring (issue 36 points 2–3, decision 0989): a physician assigns a night to two or
-- more annotators who score it blind; their sets are annotations stamped with the round, the
-- consensus the physician adjudicates becomes the night's annotations of record.
create table scoring_rounds (
  id integer generated always as identity primary key,
  patient_id integer not null references patients (id) on delete cascade,
  recording_id integer not null references recordings (id) on delete cascade,
  created_by integer not null references users (id),
  created_at timestamptz not null default now(),
  show_automatic boolean not null default false,
  status text not null default 'scoring' check (status in ('scoring', 'agreement', 'adjudicated', 'cancelled')),
  finished_at timestamptz,
  finished_by integer references users (id)
);
-- One open round a night: a second assignment while one is scored or adjudicated is refused.
create unique index scoring_rounds_one_open on scoring_rounds (recording_id) where status in ('scoring', 'agreement');
create index scoring_rounds_recording on scoring_rounds (recording_id, id);

create table scoring_round_scorers (
  round_id integer not null references scoring_rounds (id) on delete cascade,
  user_id integer not null references users (id),
  position smallint not null,
  submitted_at timestamptz,
  primary key (round_id, user_id)
);
create index scoring_round_scorers_user on scoring_round_scorers (user_id);

-- The physician's decision of one disagreement (a later decision of the same item replaces it).
create table scoring_decisions (
  round_id integer not null references scoring_rounds (id) on delete cascade,
  item text not null,
  decision jsonb not null,
  decided_by integer not null references users (id),
  decided_at timestamptz not null default now(),
  primary key (round_id, item)
);

-- scoring_round_id: the scorer's set a mark belongs to (null: a mark of record);
-- consensus_round_id: a mark of record the round's consensus wrote.
alter table annotations add column scoring_round_id integer references scoring_rounds (id) on delete cascade;
alter table annotations add column consensus_round_id integer references scoring_rounds (id) on delete set null;
create index annotations_scoring_round on annotations (scoring_round_id) where scoring_round_id is not null;
