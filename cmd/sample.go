package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"planreview/scan/plangen"
	"planreview/store/durable"
)

// newSampleCmd writes a generated plan set to try the appliance with: the
// quick start reviews it, so a first run shows code checks (riser heights,
// guard heights, egress openings) and not only document completeness.
func newSampleCmd() *cobra.Command {
	var (
		variant   string
		compliant bool
	)
	cmd := &cobra.Command{
		Use:   "sample FILE.pdf",
		Short: "Write a generated plan set with known code violations, to try the appliance with",
		Long: "Writes a synthetic 36x24 in plan set (cover sheet with sheet index and code\n" +
			"analysis, floor plan, stair section, details, structural plan) whose values\n" +
			"break known IRC or IBC 2021 limits and whose index has known gaps.\n" +
			"--compliant writes its twin with every value within the limits.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if variant != plangen.VariantResidential && variant != plangen.VariantCommercial {
				return withExitCode(2, fmt.Errorf("--variant must be %s or %s", plangen.VariantResidential, plangen.VariantCommercial))
			}
			set, err := plangen.Generate(plangen.Options{Variant: variant, Compliant: compliant, Seed: 5})
			if err != nil {
				return err
			}
			if err := durable.WriteFile(args[0], set.Files[0].PDF, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d pages, %d planted findings\n", args[0], len(set.Files[0].Pages), len(set.Expected))
			return nil
		},
	}
	cmd.Flags().StringVar(&variant, "variant", plangen.VariantResidential, "residential (IRC) or commercial (IBC)")
	cmd.Flags().BoolVar(&compliant, "compliant", false, "write the compliant twin (no code findings)")
	return cmd
}
