// The perk opens by itself: one delayed job per (course, opening time), like message.fire
// (docs/jobs.md): the key carries the time, so moving the opening queues a new job and the old one
// finds the time changed and does nothing. Granting is idempotent (grantPerk), so a rerun grants nobody twice.
import { z } from "zod";
import { defineJob } from "../../jobs/define.ts";
import { log } from "../../log.ts";
import { db } from "../../runtime.ts";
import { grantPerksToCourse } from "./perks.ts";

export const coursePerkOpenJob = defineJob(
  "course.perk-open",
  z.object({ courseId: z.string(), at: z.number().int() }),
  async ({ courseId, at }) => {
    const course = await db().course.findUnique({ where: { id: courseId } });
    if (!course || course.perkOpensAt?.getTime() !== at) return;
    const result = await grantPerksToCourse(course);
    log.info("course perk opened", { courseId, ...result });
  },
  { attempts: 10, backoffMs: 5_000 },
);

