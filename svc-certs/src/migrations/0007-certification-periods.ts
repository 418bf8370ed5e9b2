import { Migration } from '@portal/server-kit'

/**
 * The earlier periods of technicians' certifications (issue 23 item 4, decision 0044): a renewal,
 * a replaced proof or a deletion keeps the period it ends here, with its dates, number, notes,
 * proof and verification, when and by whom it ended and why. Rows outlive their certification (no
 * foreign key: a deleted certification's periods are its history) and keep the type's code and
 * name as they were (a type nobody holds any more may be deleted, decision 0012). History counts
 * for no figure: the kept figures' triggers stay on `technician_certifications`.
 */
export class CertificationPeriods extends Migration {
  override async up() {
    this.addSql(`create table technician_certification_periods (
      id serial primary key,
      technician_certification_id integer not null,
      user_id uuid not null,
      -- the type, with its code and name when the period ended
      certification_id integer not null,
      certification_code text not null,
      certification_name text not null,
      certification_number text,
      obtained_date date,
      expiration_date date,
      notes text,
      -- the period's proof, kept in storage while this row refers to it
      file_key text,
      file_name text,
      file_size bigint,
      file_type text,
      uploaded_at timestamptz,
      verified_at timestamptz,
      ended_at timestamptz not null,
      ended_by_id uuid not null,
      ended_by_name text not null,
      reason text not null check (reason in ('renewed', 'replaced', 'deleted')))`)
    this.addSql('create index technician_certification_periods_holder on technician_certification_periods (user_id, certification_id, ended_at desc, id desc)')
    this.addSql('create index technician_certification_periods_certification on technician_certification_periods (technician_certification_id)')
  }
}
