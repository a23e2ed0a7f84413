-- DropForeignKey
ALTER TABLE "CourseMailing" DROP CONSTRAINT "CourseMailing_courseId_fkey";

-- AlterTable
ALTER TABLE "Course" DROP COLUMN "couponCode",
DROP COLUMN "name",
DROP COLUMN "settings",
ADD COLUMN     "attendeeCode" TEXT,
ADD COLUMN     "attendeeCodeEnd" TIMESTAMP(3),
ADD COLUMN     "perkCreditCents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "perkDescription" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "startsAt" TIMESTAMP(3) NOT NULL,
ADD COLUMN     "title" TEXT NOT NULL;

-- AlterTable
ALTER TABLE "CourseIdea" ALTER COLUMN "courseId" SET NOT NULL,
ALTER COLUMN "authorId" SET NOT NULL;

-- AlterTable
ALTER TABLE "CourseSignup" DROP COLUMN "couponMailedAt",
DROP COLUMN "couponRedeemed",
DROP COLUMN "eligible",
DROP COLUMN "perkGrantedAt",
DROP COLUMN "userId",
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'signup';

-- DropTable
DROP TABLE "CourseMailing";

-- CreateTable
CREATE TABLE "CourseEligible" (
    "id" TEXT NOT NULL,
    "courseId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "addedById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CourseEligible_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourseCoupon" (
    "id" TEXT NOT NULL,
    "courseId" TEXT NOT NULL,
    "signupId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "mailedAt" TIMESTAMP(3),
    "mailCount" INTEGER NOT NULL DEFAULT 0,
    "redeemedAt" TIMESTAMP(3),
    "redeemedById" TEXT,
    "redeemedFingerprint" TEXT,
    "redeemedIp" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CourseCoupon_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CoursePerkGrant" (
    "id" TEXT NOT NULL,
    "courseId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "ledgerId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CoursePerkGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourseMailRun" (
    "id" TEXT NOT NULL,
    "courseId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resend" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "CourseMailRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CourseMailRecipient" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "signupId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "reason" TEXT,
    "claimedAt" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "CourseMailRecipient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdminAuditLog" (
    "id" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "courseId" TEXT,
    "target" TEXT,
    "count" INTEGER NOT NULL DEFAULT 0,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdminAuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CourseEligible_courseId_email_key" ON "CourseEligible"("courseId", "email");

-- CreateIndex
CREATE UNIQUE INDEX "CourseCoupon_signupId_key" ON "CourseCoupon"("signupId");

-- CreateIndex
CREATE UNIQUE INDEX "CourseCoupon_code_key" ON "CourseCoupon"("code");

-- CreateIndex
CREATE INDEX "CourseCoupon_courseId_idx" ON "CourseCoupon"("courseId");

-- CreateIndex
CREATE UNIQUE INDEX "CoursePerkGrant_courseId_userId_key" ON "CoursePerkGrant"("courseId", "userId");

-- CreateIndex
CREATE INDEX "CourseMailRun_courseId_createdAt_idx" ON "CourseMailRun"("courseId", "createdAt");

-- CreateIndex
CREATE INDEX "CourseMailRecipient_runId_status_idx" ON "CourseMailRecipient"("runId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "CourseMailRecipient_runId_signupId_key" ON "CourseMailRecipient"("runId", "signupId");

-- CreateIndex
CREATE INDEX "AdminAuditLog_createdAt_idx" ON "AdminAuditLog"("createdAt");

-- CreateIndex
CREATE INDEX "AdminAuditLog_courseId_createdAt_idx" ON "AdminAuditLog"("courseId", "createdAt");

-- CreateIndex
CREATE INDEX "CourseIdea_courseId_createdAt_idx" ON "CourseIdea"("courseId", "createdAt");

-- CreateIndex
CREATE INDEX "CourseSignup_courseId_createdAt_idx" ON "CourseSignup"("courseId", "createdAt");

-- CreateIndex
CREATE INDEX "CourseSignup_courseId_fingerprint_idx" ON "CourseSignup"("courseId", "fingerprint");

-- CreateIndex
CREATE INDEX "CourseSignup_courseId_ip_idx" ON "CourseSignup"("courseId", "ip");

-- AddForeignKey
ALTER TABLE "CourseEligible" ADD CONSTRAINT "CourseEligible_courseId_fkey" FOREIGN KEY ("courseId") REFERENCES "Course"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CourseCoupon" ADD CONSTRAINT "CourseCoupon_courseId_fkey" FOREIGN KEY ("courseId") REFERENCES "Course"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CourseCoupon" ADD CONSTRAINT "CourseCoupon_signupId_fkey" FOREIGN KEY ("signupId") REFERENCES "CourseSignup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CoursePerkGrant" ADD CONSTRAINT "CoursePerkGrant_courseId_fkey" FOREIGN KEY ("courseId") REFERENCES "Course"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CourseMailRun" ADD CONSTRAINT "CourseMailRun_courseId_fkey" FOREIGN KEY ("courseId") REFERENCES "Course"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CourseMailRecipient" ADD CONSTRAINT "CourseMailRecipient_runId_fkey" FOREIGN KEY ("runId") REFERENCES "CourseMailRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
