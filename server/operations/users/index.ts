import type { AnyOperation } from "../define.ts";
import userProfile from "./user-profile.ts";

export const userOperations: AnyOperation[] = [userProfile];
