import type { AnyOperation } from "../define.ts";

export const todoOperations: AnyOperation[] = [];
