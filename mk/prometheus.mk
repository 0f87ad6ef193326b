# mk/prometheus.mk -- the Prometheus side: alert rules and the counters files.
#
# conf/idnguard.rules.yml (installed under share/idnguard/prometheus) holds
# alerting rules over the counters the module (stats-file) and `idnguard
# tap` (tap-stats-file) write for node_exporter's textfile collector.
# promtool comes from Debian's `prometheus` package, unpacked into
# build/prometheus (scripts/unpack-debs.sh: never installed, so no
# Prometheus server is set up or started).
#
#   make check-prometheus   promtool check rules, promtool test rules
#                           (tests/prometheus/idnguard.test.yml), and
#                           promtool check metrics on a counters file the tap
#                           writes (part of `make check`)

PROMTOOL := $(BUILD)/prometheus/usr/bin/promtool
$(PROMTOOL):
	sh scripts/unpack-debs.sh $(BUILD)/prometheus usr/bin/promtool prometheus

.PHONY: check-prometheus
check-prometheus: $(PROMTOOL) $(CLI)
	@$(PROMTOOL) check rules conf/idnguard.rules.yml
	@$(PROMTOOL) test rules tests/prometheus/idnguard.test.yml
	@sh tests/prometheus/check-metrics.sh $(PROMTOOL) $(CLI) tests/tap/golden
	@echo "prometheus: the alert rules load and pass their tests; the tap's counters file is valid"

CHECK_EXTRA += check-prometheus
