#!/usr/bin/env node
// The `todo` command: loads the TypeScript sources through tsx (a dependency of the project).
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
