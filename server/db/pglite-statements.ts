import { parse, protocol, type PGlite } from "@electric-sql/pglite";
import { overriding } from "./overriding.ts";

// PGlite's query() parses and plans every statement anew: it sends an unnamed Parse, Describe,
// Bind, Describe, Execute and Sync each time, and on the embedded database (PostgreSQL compiled to
// WebAssembly, on the server's own thread) parsing and planning cost more than most of our
// queries' work: Prisma's message page with its blocks took 1.6–2.1 ms of CPU as sent and 0.6 ms
// as a prepared statement, a one-row read 0.57 ms and 0.23 ms. So the handle Prisma's adapter gets
// keeps a named prepared statement per SQL text (Prisma's SQL has its values as parameters, so a
// query shape is one text), and each query is then Bind, Describe, Execute and Sync, on the
// statement PostgreSQL has already planned. Prepared statements outlive the transaction that made
// them, as on any PostgreSQL connection. What is not Prisma's plain query path (COPY's blobs)
// goes through PGlite's own query.

/** Prepared statements kept at most; the one used longest ago is closed first. */
export const STATEMENT_CACHE_SIZE = 500;

type Statement = { name: string; paramTypes: number[] };
type QueryOptions = NonNullable<Parameters<PGlite["query"]>[2]>;
type Results = Awaited<ReturnType<PGlite["query"]>>;
type Message = { name: string; dataTypeIDs?: number[] };

/** PGlite's members this uses that are not in its typings (the same its own query() uses). */
type Internals = PGlite & {
  serializers: Record<number, (v: unknown) => string>;
  parsers: Record<number, (v: string, typeId?: number) => unknown>;
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
};

const { serialize } = protocol;
const STREAM = { syncToFs: false };

/** `db` with query() (and its transactions' query()) on prepared statements, at most `size` of them. */
export function withStatementCache(db: PGlite, size = STATEMENT_CACHE_SIZE): PGlite {
  const pg = db as Internals;
  /** By SQL text (and the parameter types the caller declared, if any), the least recently used first. */
  const cache = new Map<string, Statement>();
  let named = 0;

  const stream = (message: Uint8Array) => pg.execProtocolStream(message, STREAM) as Promise<Message[]>;

  const prepared = async (text: string, options: QueryOptions | undefined, inTransaction: boolean): Promise<Statement> => {
    const key = options?.paramTypes?.length ? `${JSON.stringify(options.paramTypes)} ${text}` : text;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    // Outside a transaction only: a failed transaction refuses even a Close.
    if (!inTransaction && cache.size >= size) {
      const [oldest, statement] = cache.entries().next().value!;
      cache.delete(oldest);
      await stream(serialize.close({ type: "S", name: statement.name }));
    }
    const name = `todo_stmt_${++named}`;
    await stream(serialize.parse({ name, text, types: options?.paramTypes }));
    const described = await stream(serialize.describe({ type: "S", name }));
    const statement = { name, paramTypes: described.find((m) => m.name === "parameterDescription")?.dataTypeIDs ?? [] };
    cache.set(key, statement);
    return statement;
  };

  const run = (text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> =>
    pg._runExclusiveQuery(async () => {
      const messages: Message[] = [];
      try {
        const statement = await prepared(text, options, inTransaction);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement.paramTypes[i]!;
          const serializer = options?.serializers?.[type] ?? pg.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        messages.push(...(await stream(serialize.bind({ statement: statement.name, values }))));
        messages.push(...(await stream(serialize.describe({ type: "P" }))));
        messages.push(...(await stream(serialize.execute({}))));
      } finally {
        messages.push(...(await stream(serialize.sync())));
      }
      if (!inTransaction) await pg.syncToFs();
      return parse.parseResults(messages as never, pg.parsers as never, options)[0] as Results;
    });

  const query = async (text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results> => {
    if (options?.blob) return db.query(text, params, options);
    await pg._checkReady();
    return pg._runExclusiveTransaction(() => run(text, params, options, false));
  };

  type Tx = Parameters<Parameters<PGlite["transaction"]>[0]>[0];
  const inTransaction = (tx: Tx): Tx =>
    overriding(tx, {
      query: (text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (tx.closed) throw new Error("Transaction is closed");
        return options?.blob ? tx.query(text, params, options) : run(text, params, options, true);
      },
    });

  return overriding(db, {
    query,
    transaction: <T>(fn: (tx: Tx) => Promise<T>) => db.transaction((tx) => fn(inTransaction(tx))),
  });
}
