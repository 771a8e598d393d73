-- Each physician's own additions to the label-to-channel map used by imports.
create table label_maps (
  physician_id integer not null references users (id) on delete cascade,
  label text not null check (length(label) between 1 and 80),
  -- Empty code: keep the signal under its own label.
  code text not null check (length(code) <= 40),
  updated_by integer references users (id),
  updated_at timestamptz not null default now(),
  primary key (physician_id, label)
);
