-- AlterTable
ALTER TABLE "certification_cases" ADD COLUMN     "actor_ref" VARCHAR(200),
ADD COLUMN     "b2b_simulation" BOOLEAN,
ADD COLUMN     "ecf_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "notes" VARCHAR(4000);

-- CreateTable
CREATE TABLE "certification_official_sets" (
    "ref" VARCHAR(200) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "description" VARCHAR(2000) NOT NULL,
    "issuer_rnc" VARCHAR(11) NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "content" BYTEA NOT NULL,
    "rows" JSONB NOT NULL,
    "row_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "certification_official_sets_pkey" PRIMARY KEY ("ref")
);

-- AddForeignKey
ALTER TABLE "certification_cases" ADD CONSTRAINT "certification_cases_official_set_ref_fkey" FOREIGN KEY ("official_set_ref") REFERENCES "certification_official_sets"("ref") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written (issue 26): the catalogue was a hard-coded empty list, so no case can name a set
-- that is missing here. A set is never deleted (cases and their runs keep naming it); it is retired.
COMMENT ON TABLE "certification_official_sets" IS 'Official data-test sets the operator loads (admin official-set load); retired_at set: out of the catalogue, kept for the cases on it.';
