"""HoDoKu's stronger techniques: Franken and mutant fish, ALS chains, death blossom, kraken fish.

First the cases of HoDoKu's regression library (reglib 1.4: the givens, the candidates deleted
before, the exact eliminations HoDoKu's own finder makes) for Franken and mutant fish
(0331-0362), ALS-XZ and ALS-XY-wings (0901, 0902), ALS-XY-chains (0903) and death blossoms
(0904): each finder must make exactly HoDoKu's elimination. Then positions the stepper reached on the shipped sudoku-exchange
diabolical sample (the reglib has no kraken fish) with exact eliminations and chains; then
every finder over real puzzles, each step checked against the SAT solution; stopping; the
catalogue.
"""

from __future__ import annotations

import threading
from itertools import islice
from pathlib import Path

import pytest
from sudoku_marks import GEO, assert_sound, named, pm_state

from tui_games.engine.sudoku import als, complex_fish, kraken, sat
from tui_games.engine.sudoku.als_chain import als_chains
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.complex_fish import FRANKEN, MUTANT
from tui_games.engine.sudoku.death_blossom import death_blossoms
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.generator import random_solution
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.kraken import kraken_fish
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import FISH_NAMES, Cancelled, State

SHIPPED = Path(__file__).parents[2] / "puzzles"
NEW = [t for t in TECHNIQUES if any(k in t.name for k in ("Franken", "mutant", "ALS chain", "death blossom", "kraken"))]


def fresh() -> None:
    """Forget the positions the finders keep, so each test computes its own."""
    als._cached[0] = None
    complex_fish._cached.clear()
    kraken._cached[0] = None


def reglib_case(line: str) -> tuple[State, str, set[tuple[int, int]], Grid]:
    """``:code:digits:givens:deleted:eliminations:...`` (``+`` marks a placed digit; candidates
    are those no peer holds less the deleted ones, written digit-row-column)."""
    _, code, _, givens, deleted, eliminations, *_ = line.split(":")
    values = [0 if ch == "." else int(ch) for ch in givens.replace("+", "")]
    grid = Grid(values)
    masks = grid.candidate_masks()
    for token in deleted.split():
        d, r, c = map(int, token)
        masks[(r - 1) * 9 + c - 1] &= ~(1 << (d - 1))
    expected = {((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in eliminations.split()}
    return State(GEO, list(values), masks), code.split("-")[0], expected, grid


# HoDoKu reglib 1.4 (hodoku.sourceforge.net; the long ALS chains from reglib 1.3, HoDoKu 2.2),
# the cases of these techniques our finders cover: every ALS-XZ (0901), ALS-XY-wing (0902, five
# of them with sets sharing cells), ALS-XY-chain of four to seven sets (0903) and death blossom
# (0904), with sets of up to eight cells, and Franken and mutant fish of two to four units.
REGLIB = """
:0901-1:3:.24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46..3.+57.5.7+4+61..:314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999:327::
:0901-1:7:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:111 711 811 112 712 812 713 813 714 515 715 516 716 722 625 725 726 739 341 744 348 162 589 794:752::
:0901-1:1:...2..6..67...8....853+6.......+4.6...5..19...2+1.4...79+6.....426....7..8.3.1.+6.29..:719 427 345 545 845 365 579:128::
:0901-1:8:.+934.7.6.4....59...276...+41...+9....591.+5...8.2..78....6..25.4...4..........1....3:817 325 145 245 345 346 347 747 748 255 357 366 581 881 985 587 591 597:873 883 893::
:0901-1:7:.+25+18..34...3.65.2...2..+1...42..1.+5..6..+2.3..8..7..+2...7.9.+38+2+523......1.....2.63:717 431 731 931 839 758 858 958 968 483 488 594 595:735 736::
:0901-1:8:94.+2.51.....41.......7...2+416+4+57.9..+5.8...4...+7+9.+4..518+569247+1+379+2....+4.+4...5+72..:926 332 333 637 194 394:828 829::
:0901-1:9:.4...7.8...25.....3..+8.......+4...69+3...3.4+2+5+8.23+98.7+4+1......+8+14..1+4.8...+49861..2+7:326 141 142 772 375 681 682 385 985:921::
:0901-1:8:5...3...4.31.5.9.+2.+4...6.5....3.....4.8...6...+1...952+8..4..21.7..2.1...+5+17....+296:912 713 714 716 826 728 931 737 641 941 642 943 245 445 446 746 252 554 756 671 972 874 974 875 982 484 884 486 886 596 896:881::
:0901-2:13679:....8.......4..+8.....12564.72......6..431....9......8.25.....3869...712........+6.:767 769 495 496 497 499:113 123 313 323 662 713 723 913 923 939::
:0901-2:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 985 986 791 792 895 995 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 926::
:0901-2:23468:42+5.8...1....57....+78..1...893....2.5........+71....69.+659.1...3....9645.2........:624 628 629 937 239 439 445 354 654 355 655 356 193 494 495 496 797 897 798 898 799 899:254 264 335 444 454 464 635 644 876::
:0901-2:23478:42+5.8...1....57....+78..1...893....2.5........+71....69.+659.1...3....9645.2........:624 628 629 937 239 439 445 354 654 355 655 356 193 494 495 496 797 897 798 898 799 899:254 264 335 444 454 464 745 876::
:0901-2:12479:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 985 986 791 792 895 995 196 896 996:141 149 151 153 161 162 163 212 413 463 725 925 926::
:0901-2:24789:.324.9.6..4.6.1.....6.3.4....4.2...6..971...3..3...1.5......68.3..5.7...4..1.....:511 711 815 817 719 825 827 729 831 832 536 238 239 739 839 652 662 171 172 182 488 592 593 396 297 797 997 298 798 998:279 479 485 792 823 882 892 979::
:0901-2:12357:9..17....4.1....7..7...31..14...6.98.9248173.38.5.......48...2.......6.7....6...3:793:172 244 385 571 572 796::
:0901-2:2348:...2..8.4...9..3.11........5..3.6.1.....4.........8....846351.....7...5..25......:711 621 721 532 534 535 637 639 351 651 751 951 156 258 658 758 958 361 661 761 961 165 565 268 668 768 968 185 186 287 289 194 698 798 998:221 243 253 263 359 369 398 462 467 853 859::
:0901-2:4568:7..9.2..53..1..9.7.4.7...8.1.32.........1..3...46..219.1.......2.73..6.1.3...1..8:639 447 448 648 951 953 457 475 575 875 975 476 576 876 976 479 982 988 495 595 995:428 478 498 585 586 613 615 822 842 852 862::
:0902-1:7:+8...43..+1.+3+1.5+7..8.721......9+3+5+1......5....1.18.3..........1.67..7..91..3+1+8+76592+4:441 247 451 254 454 854 255 257 265 267 471 274 875 481 284 885:768::
:0902-1:8:9....7.68+72....9+43..4....+7+52+7....4+8+9.6+9+78...28.39..71+6.....5.973.76....1+5...+7...+4:114 514 115 515 123 523 134 135 136 356 173 277 287 193 297:824::
:0902-1:2:..4..7...12....7...6.1...8.+24678+1+3+59.+19.....453.69+4.1....4325...................8:626 257 258 771 773 781 881 882 783 883 585 685 791 793 595 695:237::
:0902-1:2:.......+3.6..5..18..83.1..+2....9573...6.....92...........+6...254.487...1+3..23.....:111 615 616 636 453 457 261 262 164 464 664 465 467 667 668 669 171 971 172 972 985 986 791 792 895 995 196 896 996:212::
:0902-1:136:931..+2...6+45+197..8+2+7+8.........27.....24....568.........+6.5+281+94+4+1+2+7+6+9...+5893...6.:417 337 338 339 347 857 387:146 346 646 663::
:0902-1:356:+1+7.59..482.+4.7..19.9..14.+7.+74.....8...27..+4.....+4.6..79...2.7+3+48+2+73+45...+43+1+9+6+7+8..:346 247 149 249 356 856 967 687:347 547 647::
:0902-1:8:4.6....7......1.6.....8....23..........34.......8.+295+3.9.......+3.2.5761.5...2...4:914 721 722 723 924 829 734 934 336 536 936 443 144 644 944 175 996:849 859::
:0902-1:7:+9...+3...8+2.3..865.+8.52..3+917+9.1.3....54.......+3......9+58.3...423+298741+6+5+4........:713 424 425 643 245 845 247 847 758 163 663 867 268 868 792 195:714::
:0902-1:16:.........2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:515 516 722 341 348 589:111 112 625::
:0902-2:2:..1...34.4....697....23+4...9...5.8.....6.8.....8.9...1....45...+5728....4.84...5..:711 912 519 538 249 257 259 559 759 667 974 177 677 678 978 279 979 186 188 688 298 299:262::
:0902-2:3:..+9......2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:111 711 811 112 712 812 714 515 715 516 716 722 625 725 726 739 341 744 348 352 652 752 162 262 663 683 883 586 589 794:376 388 389::
:0902-2:3:..+9......2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:111 711 811 112 712 812 714 515 715 516 716 722 625 725 726 739 341 744 348 352 652 752 162 262 663 683 883 586 589 794:376 388 389::
:0902-2:6:+6.2+75.+8+13..812...471..+8.........7.8.4.+1862..9+82.3.....+1...+7..482...381..9+8..4+16..:936 938 944 549 966 568 569 598:636::
:0902-2:7:+6.2+75.+8+13..812...471..+8.........7.8.4.+1862..9+82.3.....+1...+7..482...381..9+8..4+16..:527 528 533 936 938 944 549 966 568 569 598 798:758::
:0903-1:7:..7..5..4+5......16+4.....5..3..9....+58.4+5......56378+1+4.+7+4+5+8+32+961+1+8346925+7..91+5+7+4..:212 612 215 318 225 232 235 636 338 339 145 357 258 259:758::
:0903-1:69:..+1.3+7......2+1+8.577.....81.1.9+3+65....6..+74.3.....82.....87....44.....+78..37+8+415..:212 412 914 932 533 934 939 277 677 977 582 984 289 689 989:611 911 912 927::
:0903-1:127:...+8......3.+57.8.98....315.9.8142......+3+5....5.+36...4.1.42+3....+3..7....6.8...531.:412 612 712 613 916 933 572 986 587 987:113 213 713::
:0903-1:1:967.....5...6...471.....+6.+8+6+13..98.+42+8543+6.7.+47+9....6+3.+21......+3..5.2.8.7.....4.2:115 525 825 826 435 436 238 167 485:114 116 127::
:0903-1:9:......29.9.6.3...7......4...613.+2.4+8+4...6.+3..8.3.5..+622..+6.785.+6...8+3.2.1.89+256..:511 312 522 124 332 539 553 159 472 479 982:966::
:0903-1:3:......29.9.6.3...7......4...613.+2.4+8+4...6.+3..8.3.5..+622..+6.785.+6...8+3.2.1.89+256..:511 312 522 124 332 539 553 159 966 472 479 982:339::
:0903-1:7:...3.721....2.......9.6.38.8.6..1.....5+8.+6.2..9.....68.4357+8.+9.7+5....8..+9.....5..:421 622 727 545 748 749 949 759:763::
:0903-1:35:1+53+9+642+7+8+9847+2.3+6.72+6..8+9..638.+4+9..+7+4+91..+78.+6+5+7+2+8+1+6493+8+6+74+9..32+3.9.+7268.+2.56+8+37.9:139:334 355 534::
:0903-1:3:.5...6.3.9.2......+6.......7+496+2751+83+375+68+192+48+2194+375+65..............8.1.6.8...7.:714 124 125 135 936 372 275 975 985 595 995 299:335::
:0903-1:6:43.5.17..5..7.263....83.....4..87.....541.27....925.4..5.27....714.58..2..31.9.57:813 913 918 923 829 631 933 437 937 939 641 949 651 661 673 877 977 978 479 879 979 692:649::
:0903-1:5:..+486.9+1..8+6.91..31+95.2.6.+8561........+9.7......3......9+1+2.+845..+6.+8.59..1.+57..6.8+9:711 316 724 728 734 244 444 346 247 447 348 448 254 454 257 457 458 559 461 264 464 564 267 467 767 268 468 768 769 778:568::
:0903-1:2:..68.51....+8....36.1....8..+65+238.9..37+1.6..82+9+84.21.6...9..+8.4.84........+654.37.+8:715 915 221 426 231 734 436 574 584 784:211 272::
:0903-1:4:..68.51....+8....36.1....8..+65+238.9..37+1.6..82+9+84.21.6...9..+8.4.84........+654.37.+8:715 915 221 426 231 734 436 574 584 784:415::
:0903-1:56:....9.2..+2..7..184.+451.....5...8.+43.+46..+7..1..8..4...2+3+5+8..67..924..7...+6+71.3....:313 514 614 516 323 638 939 943 944 246 949 953 566 978 596 598 998:568 668::
:0903:137:..1...34.4....697....23+4...9...5.8.....6.8.....8.9...1....45...+5728....4.84...5..:711 912 519 538 249 257 259 559 759 262 667 974 177 677 678 978 279 979 186 188 688 298 299:194 394 794::
:0904-1:9:8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9...8+72.+87..3+1.4:915 919 924 929 641 946 948 958 959 669 475 675 476 584 694:966::
:0904-1:1:186.+75.......3.1..+3....9..587....3.+163..8+7.52..9+3..+8672..7.....+7.3.9......+86+2+3714:423 826 828 928 929 433 234 434 435 443 466 472 572 972 573 476 679 879 582 884:184::
:0904-1:9:.1.8+4...28.4.2..3...2..74.+8.97..1.+4..+4..........4..62...96..7+8+4.8..5+42.14....8.5.:918 622 635 541 151 551 153 955 656 361 271 681 392 393 394 395:938::
:0904-1:4:.....2.3..579..6.+24..6...1.9...6...+151...+9.26+7...8..+94.7..+93..8..5.+2617+9.9.5....+3:813 114 715 517 717 833 735 536 537 737 444 353 355 171 273 478 293:414::
:0904-1:1:1..+4..7+5.8+473+59+12+6.+5..7..843..+5.72+4.....4.+5..+4.58....159.+73.+4+1+2+71.2.46.5..4..+5+8.7:643 843 653 853 256 358 958 262 665 666 368 968 692 995:145::
:0904-1:1:.+4..+5.+91.9.+58+1.3+4....794+5.86+935+8+127+4+5.+4.6..+9..12+4.96.54.+9128+7+5...7..5..9.5.+9.....:211 311 629 632 881 888 891 897 698:191::
:0904-1:8:.+6.2..9..+27+9.8.6.14+8.+6+9.+5..+65.1....9+1+284693+7+59....2.1+6....+2..+638.6.1..5...2..6.+9.:515 516 418 173 773 789 799:877::
:0904-1:4:.....87.3..82+3.5.....+71.+428.8..7193....+8..+2...9652+3+18.84+7+16.+3..+9+25+3+876..3+619..+8..:411 498 499:426::
:0904-2:3:5.+6.+281.3.2.6.....1..5..6.+2+9.7.6.+82.6.+38.2..9+48+2.9.3+6.+8.1.+57..6....+86.5.2+654....8:927 728 374 978 787 789 998:384::
:0904-2:4:2.......3.38........7.3.182+32.9.+15....57.23...+71+3+56+24.789+51+36+2+4..+2...93.4.+3...+8.5:612 415 815 618 718 621 624 425 625 725 728 729 632 659 684 485 885 786:436::
:0904-2:3:.4..+6....1.54.2.6.+6+2+3.8.4.5+389.46.57+5+6+4......71+295+863+42.1+87..+4+6.5.6.43.2+4.+6....8.:717 817 819 919 996:314 316 329::
:0904-2:5:4.63....939.8+6....+1.7+492..+67...+14.2.5.......1.1.9...+67.+7.14.6...+4...6.586....97.4:512 517 526 227 527 842 343 347 547 852 358 363 973 283 983 892 293 295:595::
:0904-2:7:3.15.87.+2.97...+8+5+1+8+5+2...6.323.9..+41.....1.+3.+5.1...3+9285.3...+1........58.+1.67.52+39:624 425 435 645 745 852 654 656 756 461 465 474 478 484 985 286 486 986:765::
:0904-2:2:3.15.87.+2.97...+8+5+1+8+5+2...6.323.9..+41.....1.+3.+5.1...3+9285.3...+1........58.+1.67.52+39:624 425 435 645 745 852 654 656 756 461 465 474 478 484 985 286 486 986:276::
:0904-2:67:+9..12.+4..24.3.8.1......4.7..24..38..5..+2...+94..94..32..1.7+4+9....8+25+31.49+4+9.+862...:513 519 619 523 627 631 632 533 633 539 639 657 761 579 679 399 599:652 752::
:0904-2:1:7..+6.98.36+3..589...+9+8...+6..+45+9+8+67..1+8+63+51+24..2+7+13+9+4+56+8.....+6.....698.+7.49.72....6:218 418 738 178 188 198:112::
:0904-2:3:.....87.3..82+3.5.....+71.+428.8..7193....+8..+2...9652+3+18.84+7+16.+3..+9+25+3+876..3+619..+8..:411 498 499:333 352::
:0331:9:.6.8.27352.76354.8385.7.26.5.6.8.3.7..876315.73.25.6848.2..657.65...78..173528946:415 136 442 144 952 474 184 484:913::
:0331:8:52...617.174.536..6.9271..5..5.2...6.9.76..1...6.3...4..759236135261.9.79613.7.5.:814 819 928 842 844 944 856 861 964 866 867 868:872::
:0332:8:..67..+391..9+3...623......+4.....3...4..72...1+34.+3..1....31..8.75..+49+5+3+1.+6.65....3.:941 547 847 951 557 665 567 475 791 495 496 897:832 835 837 841 842 862 865 867::
:0332:8:+34..+6.27.+286......1.+7......+6...5....5+7.21+693..+21.9..567+6..3549.9...........6.+9..3:114 124 127 429 834 443 843 344 346 148 283 883 186 288 889 895:836 839 849 884 886 893::
:0340:1:4.392..5659...6...6..85..4.1.5.9846.9.426.5...6.5.4...25...9683849632715..6.85294:328 829 759 367 867 269 769:129::
:0340:6:3.465..8....1.32.41..4.7.39.4.9763..9.3241..8.1753894..8.7.4..34..3.582..3186.4.5:712 728 233 533 671:682::
:0340:6:.72.3158.4..275.3.35..687.2.1.7543.8.3.619.757.5823.9.5..187..3..3596..7..734285.:973 281:672::
:0340:1:5...8.4...9745.3.8...2.36.5....625.4...845.39.5..1.2867.5.3..423...24.5..425...63:112 612 113 121 138 142 842 744 151 152 652 683:183::
:0341:5:.64.+2............2+293.8..4.......7.9..6...+23..1+9..2.86..7..89.5+9.82.1...+6...49...:518 718 724 725 128 728 541 342 542 544 154 371 372 678 482 385 685 789 394 799:525 545::
:0341:9:.6.8.27352.76354.8385.7.26.5.6.8.3.7..876315.73.25.6848.2..657.65...78..173528946:913 415 136 442 144 952 474 184 484:984::
:0341:8:.....1.83........6...27....9.71....5.6.7291..1...359..85...7...473.52...6.93.4...:511 212 213 417 517 321 521 222 223 277 178 278 678 179 198 199:899::
:0341:8:52...617.174.536..6.9271..5..5.2...6.9.76..1...6.3...484759236135261.9.79613.7.5.:814 819 928 842 844 944 856 964 866 867 868:838::
:0341:6:...39..72..3....9597...53............9.1..2..3.7.48.1..69....5..3...982.5.87...4.:821 822 234 834 835 639 349 649 949 359 659 274 197:634::
:0341:8:.5...16..3.6..2.....93..2.4..453.182...8.4...8.512.4..6.1..53.....6..9.1..721..46:759 769:825::
:0342:9:.+1.+67+8....68.+1.4..+7....26815+8..37+1+699.+7+5+6+13.+8+6+318.....1.+6.+8..5.+8....6.+1..7.1..8.6:432 433:935::
:0342:7:+1.7...8+3.+62..+83+1..+3.81+9.+2+6...64.....5.....6.1....76+4.34.+3.52.1.9.+2+34...6......3+42:514 142 974 582:779::
:0362:4:.7+6+1.95..1..+6.5...+98+5+72.16.+7...1+6.......97.3.6+9.2+5.+7188.7.6..5...9+5..3.....+9...4.:211 319 425 227 228 229 443 449 172 272 376 476 885 286 486 289 895 396:419::
"""

# The reglib's other Franken and mutant fish of two to four units (endo and cannibalistic fins,
# and HoDoKu's siamese fish 03411-03621, whose eliminations one fish of ours makes): the same
# test; the twin test below leaves them out (its pure-Python search takes a second a case).
REGLIB_MORE_FISH = """
:0332:2:...+4.29+3+6.3..+9...49.+413.+8.7..+3.84..5..83..+46.+4..71.38.5...+6+3.+4.....41+5.+33495..6..:512 121 721 821 123 526 626 741 242 642 742 944 148 248 251 952 259 872 773 274 177 179 279 281 282 884 288 798:223 228::
:0332:5:+8+19.+264...638+1....+2....981+612.+9...4+8....+8..513.8+1..7...8+12..9.77...9+8+1....2..1.+8.:314 228 734 535 735 451 756 962 592 594 495 695 397:529 599::
:03411:4:92..8.5.73..9.7..6......8....4......6..7..3.525+3.......+3+2+519.6+85..2.+8...8.96...+52:122 435 138 146 747 748 968 782 385 787:425 436::
:03411:9:+7...52..496+514.+72.3........+6.34.58.......1..68...6.........753.1+3.+5.+4..7+59+7...4..:814 117 118 818 132 832 133 833 139 939 252 452 957 364 273 275:958 967 968::
:0342:1:..5.4..32.6...94+5.+4....+5..+6.1..2.+5+48..4.5.6.+9+5......733+5.1.7..+4.49+5.2.6..2......5:714 724 734:198::
:0342:3:..+5+648+1..+4...1.+6.86+1+8..75.+4+5+42..186.7+8+6...4.193+1...+7+521+6....34+5+85....+21+7..4+1..+9+86:218 918 222 923 924 344 955 386 986 295 296:319::
:0342:7:.5...16..3.6..2.....93..2.4..453.182...8.4...8.512.4..6.1..53.....6..9.1..721..46:825 759 769:736::
:0342:8:2..9..8613.126.75..6...132.542.1.69.63.4921.5.196..243...12..36.26..951.1.3..6..2:415 431 731 833 435 473 476 489 892:844::
:0342:7:2..9..8613.126.75..6...132.542.1.69.63.4921.5.196..243...12..36.26..951.1.3..6..2:415 431 731 833 435 844 473 476 781 785 489 892 895:765::
:0342:7:+5.3+9641+8..+1.+5...69.9+6...53+4..7...84515.4........3+5...+1..+5.+4..1...18.54.+66..21..+58::759::
:0342:6:.5+7....8..+3....7+5.+84..57.314.3..2+5.89+8...+54....58+4....+32.+5.4+8+97+5.8739.+42+7+9+42..3.+5:619 123 924 625 655 658 161 267 667:687::
:0342:1:4.392..5659...6...6..85..4.1.5.9846.9.426.5...6.5.4...25...9683849632715..6.85294:328 829 759 367 867 269 769:129::
:03421:9:+7...52..496+514.+72.3........+6.34.58.......1..68...6.........753.1+3.+5.+4..7+59+7...4..:814 117 118 818 132 832 133 833 139 939 252 452 957 364 273 275:958 967 968::
:03421:3:.6....+728...+2671..+2+178.....1.65.+2.4.+98.+7+145...4.3.+6.......2.9..3...754....1......:413 513 915 335 935 349 868 269 573 283 895 995 897:328 329::
:03421:4:..6+3..21..+1.2+6.+3.5.3.+184+97+67........1....6.3...98..5.....7......2.+6.3.....152.6..:511 512 916 243 543 445 945 146 946 448 249 455 955 461 465 269 471 571 871 971 472 478 878 978 179 479 879 979 583 891 899:449 459 489::
:0362:4:....27.3+9+3.164+9+2...9+2..+5..+6+13.9...28+9.8..+26+1..+25..13+9...+9+2.8.5+3.....39622.+3.+9...1:447 772 781 782 792 892:417::
:0362:5:...+1..24....+9..1....+1327.8.7.68...+9...34.96...1........97+2.1.3512.73..6.....98+7..:512 812 813 615 421 422 423 625 546 349 259 561 563 566 666 369 471 483 499:592::
:03621:5:3.+784+62.9+6...1.+7.......7.6....+7.+1..+6+7.642.1....8+6.5.7+22+6.1.3..7.7..6.9.3....7462.:428 531 532 533 335 437 542 943 548 573 191 192 592:539 578::
:03621:5:6.+197..+4..+9...4.1+6...+1.+6...+1+82763+95+49.5+4+1.6........1..+8136.+74..2.9+34+1..8.4.82...+1:317 219 238 838 239 758 369 797:527 537::
:03621:5:....8.+41+2+94516+2+8372+1+8..45+9+63..+2+4..+81.84..12.+3.2.8.....8..4....9.72...3...+96......:314 714 316 716 946 555 661 965 966 767 375 376 584:586 596::
:03621:9:..23.+96.593+6......4...76.+3.1..8...+62+6............671.3..47.138+6+3..+62+4..1.6+1.+384+2.:718 125 525 827 534 452 852 553 753 853 455 957 582 583:952 962::
"""

FISH_SIZES = {"0331": 3, "0332": 4, "0340": 2, "0341": 3, "0342": 4, "0362": 4}


@pytest.mark.parametrize("line", REGLIB.strip().splitlines() + REGLIB_MORE_FISH.strip().splitlines(),
                         ids=lambda line: line[1:line.index(":", 6)])
def test_reglib(line):
    fresh()
    state, code, expected, grid = reglib_case(line)
    if code == "0901":
        finders = [als.als_xz]
    elif code == "0902":
        finders = [als.als_xy_wings]
    elif code == "0903":
        finders = [als_chains]
    elif code == "0904":
        finders = [death_blossoms]
    else:
        size = FISH_SIZES[code[:4]]
        finders = [t.find for t in TECHNIQUES if t.name.endswith(FISH_NAMES[size])
                   and ("Franken" in t.name or "mutant" in t.name)]
    found = [step for finder in finders for step in finder(state)]
    assert expected in [set(s.eliminations) for s in found], sorted(named(expected))
    solution = sat.solve(grid).solution
    for step in found:
        assert_sound(step, solution)


def test_long_als_chains():
    """HoDoKu's chains of six and seven sets (reglib 1.3), rated past five sets as Sudoku
    Explainer lengthens a chain."""
    fresh()
    cases = {":0903-1:4:": (6, 7.7), ":0903:137:": (7, 7.8)}
    for line in REGLIB.strip().splitlines():
        for prefix, (sets, rating) in cases.items():
            if line.startswith(prefix):
                state, _, expected, _ = reglib_case(line)
                step = next(s for s in als_chains(state) if set(s.eliminations) == expected)
                assert (step.chain[0].count("="), step.rating) == (sets, rating), step.chain


def test_sets_of_six_cells():
    """HoDoKu's ALS chain 0903-1:5 has a six-cell set at each end, and its death blossom 0904-1:4
    (the second such case) a six-cell petal: both found, with HoDoKu's elimination only."""
    fresh()
    lines = REGLIB.strip().splitlines()
    chain_line = next(line for line in lines if line.startswith(":0903-1:5:"))
    state, _, expected, grid = reglib_case(chain_line)
    step = next(s for s in als_chains(state) if set(s.eliminations) == expected)
    assert named(step.eliminations) == {("r6c8", 5)}
    assert step.chain == ("(5=9)r234578c8-(9=3)r4c4-(3=6)r7c49-(6=5)r6c125679",)
    assert step.rating == 7.4
    assert_sound(step, sat.solve(grid).solution)
    fresh()
    blossom_line = next(line for line in lines if line.startswith(":0904-1:4:.....87"))
    state, _, expected, grid = reglib_case(blossom_line)
    step = next(s for s in death_blossoms(state) if set(s.eliminations) == expected)
    assert named(step.eliminations) == {("r2c6", 4)}
    assert step.chain == ("(5)r3c6-(5=4)r79c6", "(6)r3c6-(6=4)r1c4", "(9)r3c6-(9=4)r1c2,r2c12,r3c123")
    assert_sound(step, sat.solve(grid).solution)


def test_als_xy_wing_with_overlapping_sets():
    """HoDoKu's ALS-XY-wing with ALS overlap allowed (reglib 0902-2): the wings r389c9 and
    r3c4789 share r3c9 (each wing's link to the pivot r4c123459 by a digit, 2 and 4, that the
    shared cell may hold); found after the wings of disjoint sets, and explained."""
    fresh()
    line = next(line for line in REGLIB.strip().splitlines() if line.startswith(":0902-2:6:"))
    state, _, expected, grid = reglib_case(line)
    steps = list(als.als_xy_wings(state))
    step = next(s for s in steps if set(s.eliminations) == expected)
    assert named(step.eliminations) == {("r3c6", 6)}
    assert step.chain == ("(6=2)r389c9-(2=4)r4c123459-(4=6)r3c4789",)
    assert step.explanation.endswith(
        "The sets share cells, which does not matter: no cell holding 2 is in both the pivot and r389c9, nor one "
        "holding 4 in both the pivot and r3c4789.")
    assert "share cells" not in steps[0].explanation
    assert_sound(step, sat.solve(grid).solution)


def test_death_blossom_with_overlapping_petals():
    """HoDoKu's death blossom with ALS overlap allowed (reglib 1.3, 0904-2): the stem r3c1's
    three petals all hold r6c2 (those of 1 and 8 r4c1 too), and the blossom removes both digits
    its petals all hold."""
    fresh()
    line = next(line for line in REGLIB.strip().splitlines() if line.startswith(":0904-2:67:"))
    state, _, expected, grid = reglib_case(line)
    step = next(s for s in death_blossoms(state) if set(s.eliminations) == expected)
    assert named(step.eliminations) == {("r5c2", 6), ("r5c2", 7)}
    assert step.rating == 7.4
    assert "(1: r4c1, r6c2 (1, 6 and 7); 3: r1c2, r3c2, r6c2 (3, 5, 6 and 7); 8: r4c1, r6c1, r6c2" in step.explanation
    assert "the petals may share cells" in step.explanation
    assert "some petal holds each of 6 and 7" in step.explanation
    assert_sound(step, sat.solve(grid).solution)


def test_finned_franken_swordfish_explained():
    fresh()
    line = next(line for line in REGLIB.strip().splitlines() if line.startswith(":0341:5:"))
    state, _, expected, _ = reglib_case(line)
    step = next(s for t in TECHNIQUES if t.name == "finned Franken swordfish" for s in t.find(state)
                if set(s.eliminations) == expected)
    assert named(step.eliminations) == {("r2c5", 5), ("r4c5", 5)}
    assert step.technique == "finned Franken swordfish" and step.rating == 4.6 and step.level == "extreme"
    assert step.explanation == (
        "In column 3, column 8 and box 8 (no 5 shared), 5 fits only in row 2, row 4 and row 9 but for the fin "
        "r8c5. Either a fin is 5, or each of row 2, row 4 and row 9 holds its 5 inside column 3, column 8 and "
        "box 8: both ways 5 goes from the cells of the covers outside the fish that see every fin: r2c5, r4c5.")
    assert step.units == (1, 3, 8, 11, 16, 25)  # rows 2, 4, 9; columns 3, 8; box 8


# -- kraken fish: positions the stepper meets on the shipped diabolical sample (lines 7 and 1) ----

KRAKEN_1 = """
7 69 3 25 1 89 25 4 68   1 5 4 7 6 28 3 28 9   2 69 8 3 4 59 157 156 567
4 128 7 9 25 125 6 128 3   89 128 129 6 3 4 1257 158 578   5 3 6 128 28 7 12 9 4
69 24 259 245 7 3 8 56 1   3 1248 125 1458 258 6 9 7 25   68 7 125 1258 9 125 4 3 256
"""
KRAKEN_2 = """
8 9 46 12 25 15 7 3 46   5 16 14 7 34 36 8 2 9   3 7 2 8 46 9 1 5 46
17 12 8 5 37 4 9 6 23   679 26 5 39 1 38 4 78 23   79 4 3 6 789 2 5 78 1
12 5 7 4 269 16 3 19 8   4 8 16 39 239 7 26 19 5   126 3 9 12 58 58 26 4 7
"""


def test_kraken_type_1():
    fresh()
    state = pm_state(KRAKEN_1)
    step = next(s for s in kraken_fish(state) if named(s.eliminations) == {("r8c2", 2)})
    assert step.technique == "kraken Franken X-wing" and step.rating == 7.6
    assert step.explanation == (
        "In row 7 and row 9, 2 fits only in box 7 and box 8 but for the fin r9c9. Either a fin is 2, or the finned "
        "Franken X-wing clears 2 from r8c2; and each fin, if it were 2, would rule out 2 at r8c2 through a chain. "
        "So r8c2 is not 2.")
    assert step.chain == ("(2)r9c9-(6)r9c9=(6)r9c1-(8)r9c1=(8)r8c2-(2)r8c2",)
    solution = sat.solve(parse_grid("....1..4..547....92.83.....4..9..6.3....3....5.6..7..4.....38.13....697..7..9....")).solution
    assert_sound(step, solution)


def test_kraken_type_2():
    fresh()
    state = pm_state(KRAKEN_2)
    step = next(s for s in kraken_fish(state) if named(s.eliminations) == {("r7c8", 1)})
    assert step.technique == "kraken Franken X-wing"
    assert "So column 2 has its 1 in r2c2 or a fin is 1" in step.explanation
    assert step.chain == ("(1)r2c2-(6)r2c2=(6)r2c6-(6)r7c6=(1)r7c6-(1)r7c8", "(1)r2c3-(1)r8c3=(1)r8c8-(1)r7c8")
    solution = sat.solve(parse_grid(".9....73.5..7....93.2..91....85.4.6.....1.....4.6.25....74..3.84....7..5.39....4.")).solution
    assert_sound(step, solution)


# -- real puzzles ---------------------------------------------------------------------------------


def test_every_step_is_sound_on_real_puzzles():
    """At every position past the basic techniques on hard puzzles, every step of the new
    finders (the first twenty each) agrees with the SAT solution (the larger fish on one
    puzzle only where their search is not compiled: they take a second a position)."""
    grids = parse_puzzles((SHIPPED / "bench_sudoku_sudoku_exchange_diabolical_200.txt").read_text())[:6]
    grids += parse_puzzles((SHIPPED / "bench_sudoku_magictour_top1465_100.txt").read_text())[:2]
    used = set()
    for k, grid in enumerate(grids):
        solution = sat.solve(grid).solution
        stepper = Stepper(grid)
        while (step := stepper.next_step()) is not None:
            assert_sound(step, solution)
            if step.rating >= 3.8:
                for technique in NEW:
                    if technique.hints or k == 0:  # without the compiled fish search, one puzzle
                        for found in islice(technique.find(stepper.state), 20):
                            assert_sound(found, solution)
                            used.add(found.technique.split()[0] if "kraken" in found.technique else found.technique)
            stepper.apply(step)
    assert {"ALS chain", "death blossom", "kraken", "finned Franken X-wing"} <= used, used


@pytest.mark.skipif(not complex_fish.compiled_search(), reason="the compiled fish search was not built here")
def test_compiled_search_is_its_twin():
    """The compiled fish search and its pure-Python twin meet the same fish in the same order:
    on HoDoKu's fish positions and on positions of a hard puzzle, a diagonal and a 16x16 one,
    both families, with and without the finned fish that remove nothing."""
    cases = [(reglib_case(line)[0], FISH_SIZES[line[1:5]]) for line in REGLIB.strip().splitlines()
             if line[1:5] in FISH_SIZES]
    grid = parse_puzzles((SHIPPED / "bench_sudoku_tdoku_forum_hardest_1106_100.txt").read_text())[0]
    stepper = Stepper(grid)
    for _ in range(3):
        stepper.run(10)
        cases += [(State.from_grid(stepper.grid(), stepper.candidates), size) for size in (2, 3, 4)]
    # a diagonal (X) grid (its centre cell is in five units) and a 16x16 one, two thirds empty
    diagonal = Grid([v if k % 3 == 0 else 0 for k, v in enumerate(random_solution(5, diagonal=True))], diagonal=True)
    cases += [(State.from_grid(diagonal), size) for size in (2, 3)]
    big = Grid([v if k % 3 == 0 else 0 for k, v in enumerate(random_solution(7, size=16))], size=16)
    cases.append((State.from_grid(big), 2))
    compared = 0
    for state, size in cases:
        for family in (FRANKEN, MUTANT):
            for every_finned in (False, True) if size == 2 else (False,):
                compiled = complex_fish._search(state, size, family, every_finned, compiled=True)
                twin = complex_fish._search(state, size, family, every_finned, compiled=False)
                assert compiled == twin, (size, family, every_finned)
                compared += len(compiled)
    assert compared > 1000


def test_finders_stop_when_asked():
    state = pm_state(KRAKEN_2)
    state.stop = threading.Event()
    state.stop.set()
    for technique in NEW:
        fresh()
        with pytest.raises(Cancelled):
            list(technique.find(state))


def test_finders_leave_the_state_alone():
    state = pm_state(KRAKEN_2)
    before = (list(state.values), list(state.masks))
    for technique in NEW:
        list(islice(technique.find(state), 5))
    assert (state.values, state.masks) == before


def test_catalogue():
    ratings = {t.name: (t.level, t.rating, t.explainer, t.hints) for t in TECHNIQUES}
    assert ratings["Franken X-wing"] == ("extreme", 3.8, False, True)
    # the larger fish serve the hints where their search is compiled (pure Python: 1 s a position)
    compiled = complex_fish.compiled_search()
    assert ratings["finned Franken swordfish"] == ("extreme", 4.6, False, compiled)
    assert ratings["Franken jellyfish"] == ("fiendish", 5.8, False, compiled)
    assert ratings["finned mutant jellyfish"] == ("fiendish", 6.6, False, compiled)
    assert ratings["ALS chain"] == ("fiendish", 7.4, False, True)
    assert ratings["death blossom"] == ("fiendish", 7.4, False, True)
    assert ratings["kraken fish"] == ("diabolical", 7.5, False, True)
    # HoDoKu's order within a size: basic < finned < Franken < finned Franken < mutant < finned mutant
    for size in (2, 3, 4):
        chain = [complex_fish.fish_rating(k, size, f) for k in ("basic", FRANKEN, MUTANT) for f in (False, True)]
        assert chain == sorted(chain)
