-- Reports as real documents (issue 17 point 1): one job per report request (spec 2 §3
-- "Report request": the patient code as order id, language, version, the checked dates).
-- The server works the queue in-process (one at a time); `npm run reports` runs a second
-- worker process that claims jobs with FOR UPDATE SKIP LOCKED (PostgreSQL). The finished
-- PDF is kept in the row; a failed job keeps its reason and can be queued again.
create table report_jobs (
  id integer generated always as identity primary key,
  -- The practice (its physician's id): every read of a job is scoped by it.
  practice_id integer not null references users (id) on delete cascade,
  patient_id integer not null references patients (id) on delete cascade,
  requested_by integer references users (id) on delete set null,
  -- Whether the requester's membership shows AHI and ODI (spec 2 §1): fixed at request time.
  paid boolean not null default false,
  order_id text not null,
  report_type text not null,
  view text not null check (view in ('single', 'trend')),
  language text not null check (language in ('de', 'en')),
  version integer not null default 1,
  -- Night keys (Unix seconds) of the checked dates only.
  dates jsonb not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  -- The step the worker is on: process_kpis, create_content, render, file.
  step text,
  error text,
  attempts integer not null default 0,
  claimed_by text,
  file_name text,
  file bytea,
  file_bytes integer,
  pages integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);

create index report_jobs_queue on report_jobs (id) where status = 'queued';
create index report_jobs_practice on report_jobs (practice_id, created_at desc);
