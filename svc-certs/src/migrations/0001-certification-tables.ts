import { Migration } from '@portal/server-kit'

/** Certification types, tier requirements, technicians' certifications and proofs, tier state. */
export class CertificationTables extends Migration {
  override async up() {
    this.addSql(`create table certification_types (
      id serial primary key,
      name text not null,
      code text not null,
      tier_level smallint not null check (tier_level between 0 and 3),
      -- null: every department
      department text,
      training_link text,
      -- months; null: lifetime
      validity_period integer check (validity_period between 1 and 1200),
      upload_required boolean not null,
      is_active boolean not null,
      description text,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    this.addSql('create unique index certification_types_code on certification_types (lower(code))')
    // Which types each tier asks for; they go with their type (a type held by anyone cannot be deleted).
    this.addSql(`create table tier_requirements (
      id serial primary key,
      tier_level smallint not null check (tier_level between 0 and 3),
      certification_id integer not null references certification_types (id) on delete cascade,
      is_required boolean not null,
      created_at timestamptz not null,
      unique (tier_level, certification_id))`)
    this.addSql(`create table technician_certifications (
      id serial primary key,
      user_id uuid not null,
      certification_id integer not null references certification_types (id),
      certification_number text,
      obtained_date date,
      expiration_date date,
      notes text,
      -- the proof: storage key, original name, size and the type its content showed
      file_key text,
      file_name text,
      file_size bigint,
      file_type text,
      uploaded_at timestamptz,
      verified_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (user_id, certification_id),
      constraint technician_certifications_dates check (expiration_date >= obtained_date))`)
    this.addSql('create index technician_certifications_type on technician_certifications (certification_id)')
    this.addSql('create index technician_certifications_expiry on technician_certifications (expiration_date)')
    // A technician's tier state (absent: tier 0, notifications on, no ratio).
    this.addSql(`create table technicians (
      user_id uuid primary key,
      current_tier smallint not null default 0 check (current_tier between 0 and 3),
      notifications_paused_until timestamptz,
      rev_pay_ratio numeric(10, 2),
      updated_at timestamptz not null)`)
  }
}
