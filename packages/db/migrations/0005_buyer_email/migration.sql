-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "buyer_email_environments" "Environment"[] DEFAULT ARRAY[]::"Environment"[];

