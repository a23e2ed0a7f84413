import type { AnyOperation } from "../../http/define.ts";
import searchMessages from "./search-messages.ts";

export const searchOperations = [searchMessages] satisfies AnyOperation[];
