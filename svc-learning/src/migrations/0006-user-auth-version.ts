import { Migration } from '@portal/server-kit'

/**
 * The auth version identity publishes with each user: a token whose `ver` is lower (roles changed,
 * password reset since it was issued) is refused, as is any token of a deleted user.
 */
export class UserAuthVersion extends Migration {
  override async up() {
    this.addSql('alter table users add column auth_version int not null default 0')
  }
}
