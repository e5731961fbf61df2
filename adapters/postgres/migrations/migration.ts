// One versioned step of the PostgreSQL store's schema (adapters/postgres/schema.ts applies them).

export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}
