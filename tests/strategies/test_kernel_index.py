"""The kernel's canonical index: a bijection onto each layer's canonical states, counted by brute force."""

import pytest
from kernel_helpers import MINIATURES, brute_force_layers, rules_id

from rummy import DEFAULT_RULES, RulesConfig
from strategies.kernel import KernelUnsupported, check_supported, kernel_tables
from strategies.kernel.play import state_index
from strategies.kernel.tables import layer_sizes


def pack(values: list[int]) -> int:
    return sum(value << (4 * t) for t, value in enumerate(values))


@pytest.mark.parametrize("rules", MINIATURES[:3], ids=rules_id)
def test_layer_sizes_match_brute_force_and_the_index_is_a_bijection(rules: RulesConfig) -> None:
    from strategies.kernel.core import state_at

    tables = kernel_tables(rules)
    layers = brute_force_layers(rules)
    assert layer_sizes(tables) == [len(layer) for layer in layers]
    for d, layer in enumerate(layers):
        seen = set()
        for canonical in layer:
            # Any order of the types names the same state.
            for shuffled in (canonical, canonical[::-1]):
                mine = pack([m for m, _o, _k in shuffled])
                theirs = pack([o for _m, o, _k in shuffled])
                deck = pack([k for _m, _o, k in shuffled])
                index = state_index(tables.blob, mine, theirs, deck, d)
                assert 0 <= index < len(layer)
                seen.add(index)
            mine, theirs, deck = state_at(tables.blob, d, index)
            back = sorted(
                ((mine >> 4 * t) & 15, (theirs >> 4 * t) & 15, (deck >> 4 * t) & 15)
                for t in range(rules.types_per_round)
            )
            assert tuple(back) == canonical
        assert len(seen) == len(layer)


def test_the_full_game_has_its_known_state_counts() -> None:
    # 277,590,264 states; layer 0 has 0.86 M, the peak is 24.2 M at d = 9, layer 20 has 2.83 M.
    sizes = layer_sizes(kernel_tables(DEFAULT_RULES))
    assert sum(sizes) == 277_590_264
    assert sizes[0] == 862_500 and sizes[20] == 2_834_018
    assert max(sizes) == sizes[9] == 24_209_692


def test_unsupported_rules_are_refused_with_the_reason() -> None:
    with pytest.raises(KernelUnsupported, match="at most 4 types per round, not 5"):
        check_supported(RulesConfig(types_per_round=5, cards_per_type=4, hand_size=3))
    # A lay of no cards is now refused by RulesConfig itself, before the kernel sees the rules.
    with pytest.raises(ValueError, match="min_lay"):
        RulesConfig(types_per_round=2, cards_per_type=4, hand_size=2, min_lay=0)


def test_compiled_code_is_cached_in_the_user_cache_directory() -> None:
    import os
    import subprocess
    import sys

    import platformdirs

    env = {
        key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", "RUMMY_VISION_KERNEL_CACHE")
    }
    shown = subprocess.run(
        [sys.executable, "-c", "import strategies.kernel, numba; print(numba.config.CACHE_DIR)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert shown.startswith(platformdirs.user_cache_dir("rummy-vision"))
