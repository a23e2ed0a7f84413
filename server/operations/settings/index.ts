import type { AnyOperation } from "../define.ts";

export const settingsOperations: AnyOperation[] = [];
