-- AlterTable
ALTER TABLE "taxauth_episodes" ADD COLUMN     "service" VARCHAR(32) NOT NULL DEFAULT 'recepcion';

