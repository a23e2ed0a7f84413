import type { AnyOperation } from "../../http/define.ts";
import searchMessages from "./search-messages.ts";
import searchUnified from "./search-unified.ts";

export const searchOperations = [searchMessages, searchUnified] satisfies AnyOperation[];
