-- Issue 16 points 2-4: the user profile (spec 1 §3 "User profile"), the avatar images,
-- specialisations, and the admin's approval of signed-up accounts.

alter table users
  add column secondary_emails text not null default '',
  add column ternary_email text not null default '',
  add column phone text not null default '',
  add column phone2 text not null default '',
  add column phone3 text not null default '',
  add column date_of_birth date,
  add column gender text not null default '',
  add column height numeric,
  add column weight numeric,
  add column bmi numeric,
  add column specialisation_ids text not null default '',
  add column rii_parameters text not null default '["APN","AHI","MOV","TST"]',
  -- The avatar's name (user_avatars.name); null: the default avatar.
  add column profile_image text,
  -- Signup approval: who decided, when, and the reason given to a refused applicant.
  add column reviewed_by integer references users (id),
  add column reviewed_at timestamptz,
  add column review_reason text not null default '';

alter table users drop constraint users_status_check;
alter table users add constraint users_status_check check (status in ('active', 'pending', 'refused', 'disabled'));

create table specialisations (
  id integer primary key,
  specialisation_name text not null unique
);
insert into specialisations (id, specialisation_name) values
  (1, 'Sleep medicine'), (2, 'Pulmonology'), (3, 'Cardiology'), (4, 'Neurology'),
  (5, 'Otorhinolaryngology'), (6, 'Internal medicine'), (7, 'General practice'), (8, 'Psychiatry');

-- Profile images: bytes in the database (both PGlite and PostgreSQL), served practice-scoped.
create table user_avatars (
  name text primary key,
  user_id integer not null references users (id) on delete cascade,
  content_type text not null check (content_type in ('image/jpeg', 'image/png')),
  bytes bytea not null,
  created_at timestamptz not null default now()
);
create index user_avatars_user on user_avatars (user_id);
